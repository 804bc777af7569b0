/**
 * The odd-input sweep, in both eras: every tool the git server lists is called with a battery of
 * odd inputs made from its input schema (folders that are no repository or lead out, a repository
 * without commits, revisions that name nothing or the wrong kind of object, option-like values,
 * pathspec magic, names git refuses, bad dates, foreign and garbage cursors, empty, huge and
 * control-character strings), and every prompt, completion and resource read gets odd values too.
 * Each answer must be a success or one short message: never "internal error", a stack trace, a raw
 * errno message or a host path the caller did not send. Writers run on a copy restored each case.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import {
  connect,
  type OddInputCase,
  type OddInputTool,
  oddInputAnswer,
  oddInputCases,
  oddInputLabel,
  oddInputProblems,
  oddInputReport,
  scriptedModel,
  type TestSession,
} from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitApp } from '../src/server.js';
import { tools as defined } from '../src/tools/index.js';
import {
  buildRepos,
  GIT_BASE,
  type GitSweepWorld,
  gitBattery,
  gitExtras,
  oddFilePaths,
  oddRepos,
  oddRevisions,
  restoreRepos,
} from './sweep-world.js';

const ERAS = ['legacy', 'modern'] as const;
const TOOL_NAMES = defined.map((t) => t.name);
// The package's own folder: an answer naming a source file leaks how the host is laid out.
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

describe.each(ERAS)('odd inputs, %s era', (era) => {
  let w: GitSweepWorld;
  let app: App;
  let session: TestSession;
  let listed: OddInputTool[];
  const foreignCursors: string[] = [];

  const check = (label: string, sent: unknown, answer: Awaited<ReturnType<typeof oddInputAnswer>>) =>
    oddInputReport(label, answer, oddInputProblems(answer, sent, [w.base, PACKAGE_DIR]));

  beforeAll(async () => {
    w = await buildRepos(await mkdtemp(join(tmpdir(), 'mcpkit-git-sweep-')));
    app = createGitApp({
      roots: await RootSet.create([w.repos]),
      defaultRepository: join(w.repos, 'app'),
      globalConfigFile: '/dev/null',
      resultPageSize: 1,
      notifyDebounceMs: 20,
    });
    session = await connect(app, {
      era,
      elicitation: () => ({ action: 'accept', content: { confirm: true } }),
      sampling: scriptedModel({ answer: () => 'Sweep the odd inputs' }).respond,
    });
    listed = (await session.client.listTools()).tools as OddInputTool[];
    // Genuine cursors, each made for another call than the one it will be sent to.
    for (const [tool, args] of [
      ['git_log', { max_count: 1 }],
      ['git_reflog', { max_count: 1 }],
      ['git_branch', {}],
      ['git_tag', {}],
    ] as const) {
      const result = await session.callTool(tool, args);
      const next = (result.structuredContent as { nextCursor?: string } | undefined)?.nextCursor;
      if (next) foreignCursors.push(next);
    }
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    await rm(w.base, { recursive: true, force: true });
  });

  it('lists every tool the server defines, so the sweep below covers them all', () => {
    expect(listed.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(foreignCursors.length).toBe(4);
  });

  it.each(TOOL_NAMES)(
    '%s answers every odd input with a success or one clear sentence',
    async (name) => {
      const tool = listed.find((t) => t.name === name) as OddInputTool;
      const base = GIT_BASE[name];
      expect(base, `no base arguments for ${name}`).toBeDefined();
      const cases: OddInputCase[] = [
        ...oddInputCases(tool, base as Record<string, unknown>, gitBattery(w, foreignCursors)),
        ...(gitExtras()[name] ?? []).map((args) => ({ label: `extra ${JSON.stringify(args)}`, args })),
      ];
      const writes = tool.annotations?.readOnlyHint !== true;
      const failures: string[] = [];
      for (const c of cases) {
        if (writes) await restoreRepos(w);
        const answer = await oddInputAnswer(session.callTool(name, c.args));
        failures.push(...check(c.label, c.args, answer));
      }
      await restoreRepos(w);
      expect(failures).toEqual([]);
    },
    // Hundreds of calls, each a git process or more: more than the default test time on a slow machine.
    180_000,
  );

  it('answers odd prompt arguments with a prompt or one clear sentence', async () => {
    const prompts = (await session.client.listPrompts()).prompts;
    const failures: string[] = [];
    for (const prompt of prompts) {
      const base = Object.fromEntries(
        (prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'HEAD']),
      );
      for (const arg of prompt.arguments ?? []) {
        const values = arg.name === 'repo_path' ? oddRepos(w) : oddRevisions(w);
        for (const value of values) {
          const args = { ...base, [arg.name]: value };
          const answer = await oddInputAnswer(
            session.client.getPrompt({ name: prompt.name, arguments: args }),
          );
          failures.push(...check(`${prompt.name} ${arg.name}=${oddInputLabel(value)}`, args, answer));
        }
      }
      const answer = await oddInputAnswer(session.client.getPrompt({ name: prompt.name, arguments: {} }));
      failures.push(...check(`${prompt.name} without arguments`, {}, answer));
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('completes odd values to candidates or one clear sentence', async () => {
    const prompts = (await session.client.listPrompts()).prompts;
    const templates = (await session.client.listResourceTemplates()).resourceTemplates;
    const refs = [
      ...prompts.flatMap((p) =>
        (p.arguments ?? []).map((a) => ({ ref: { type: 'ref/prompt', name: p.name }, arg: a.name })),
      ),
      ...templates.flatMap((t) =>
        [...t.uriTemplate.matchAll(/\{\+?(\w+)\}/g)].map((m) => ({
          ref: { type: 'ref/resource', uri: t.uriTemplate },
          arg: m[1] as string,
        })),
      ),
    ];
    const failures: string[] = [];
    for (const { ref, arg } of refs) {
      for (const repo of [undefined, ...oddRepos(w)]) {
        const value = 'ma';
        const context = repo === undefined ? {} : { context: { arguments: { repo_path: repo, repo } } };
        const params = { ref, argument: { name: arg, value }, ...context } as Parameters<
          typeof session.client.complete
        >[0];
        const answer = await oddInputAnswer(session.client.complete(params));
        failures.push(
          ...check(`complete ${JSON.stringify(ref)} ${arg} in ${oddInputLabel(repo)}`, [value, repo], answer),
        );
      }
      for (const value of oddFilePaths(w)) {
        const params = { ref, argument: { name: arg, value } } as Parameters<
          typeof session.client.complete
        >[0];
        const answer = await oddInputAnswer(session.client.complete(params));
        failures.push(
          ...check(`complete ${JSON.stringify(ref)} ${arg}=${oddInputLabel(value)}`, value, answer),
        );
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('reads odd resource URIs to contents or one clear sentence', async () => {
    const repos = [
      'repos%2Fapp',
      'repos%2Fempty',
      'repos%2Fplain',
      'repos%2Fmissing',
      'repos',
      '..',
      '%2E%2E%2Foutside',
      '%ZZ',
      'x'.repeat(5000),
    ];
    const uris = repos.flatMap((r) => [
      `git://${r}/status`,
      ...oddRevisions(w)
        .slice(0, 24)
        .flatMap((rev) => [
          `git://${r}/blob/${encodeURIComponent(rev)}/README.md`,
          `git://${r}/commit/${encodeURIComponent(rev)}`,
        ]),
      ...oddFilePaths(w)
        .filter((p) => !p.includes('\ud800'))
        .map((p) => `git://${r}/blob/HEAD/${encodeURI(p)}`),
      `git://${r}/blob/HEAD/src`,
      `git://${r}/blob/HEAD/`,
      `git://${r}/nothing`,
      `git://${r}/blob/%ZZ/x`,
    ]);
    uris.push('', 'git://', 'git:///status', 'file:///etc/passwd', 'not a uri');
    const failures: string[] = [];
    for (const uri of uris) {
      const answer = await oddInputAnswer(session.client.readResource({ uri }));
      failures.push(...check(`read ${oddInputLabel(uri)}`, [uri, safeDecode(uri)], answer));
      if (era === 'legacy' && uri.endsWith('/status')) {
        const sub = await oddInputAnswer(session.client.subscribeResource({ uri }));
        failures.push(...check(`subscribe ${oddInputLabel(uri)}`, [uri, safeDecode(uri)], sub));
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});

// A URI as the server decodes it, since a refusal may quote that.
function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}
