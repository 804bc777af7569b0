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
import type { App } from '@mcpkit/core/server';
import {
  connect,
  type OddInputTool,
  type OddSweepTarget,
  oddCompletionSweep,
  oddForeignCursors,
  oddPromptSweep,
  oddResourceSweep,
  oddToolSweep,
  scriptedModel,
  type TestSession,
} from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as defined } from '../src/tools/index.js';
import {
  buildRepos,
  GIT_BASE,
  type GitSweepWorld,
  gitBattery,
  gitExtras,
  gitSweepApp,
  oddFilePaths,
  oddRepos,
  oddRevisions,
  outsideTree,
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
  let foreignCursors: string[];
  let outside: string[];
  const target = (): OddSweepTarget => ({ session, hosts: [w.base, PACKAGE_DIR] });

  beforeAll(async () => {
    w = await buildRepos(await mkdtemp(join(tmpdir(), 'mcpkit-git-sweep-')));
    outside = await outsideTree(w);
    app = await gitSweepApp(w, { resultPageSize: 1, notifyDebounceMs: 20 });
    session = await connect(app, {
      era,
      elicitation: () => ({ action: 'accept', content: { confirm: true } }),
      sampling: scriptedModel({ answer: () => 'Sweep the odd inputs' }).respond,
    });
    listed = (await session.client.listTools()).tools as OddInputTool[];
    // Genuine cursors, each made for another call than the one it will be sent to.
    foreignCursors = await oddForeignCursors(session, [
      ['git_log', { max_count: 1 }],
      ['git_reflog', { max_count: 1 }],
      ['git_branch', {}],
      ['git_tag', {}],
    ]);
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
      const failures = await oddToolSweep(target(), tool, {
        base: base as Record<string, unknown>,
        battery: gitBattery(w, foreignCursors),
        extras: gitExtras()[name],
        restore: () => restoreRepos(w),
      });
      expect(failures).toEqual([]);
      expect(await outsideTree(w)).toEqual(outside);
    },
    // Hundreds of calls, each a git process or more: more than the default test time on a slow machine.
    180_000,
  );

  it('answers odd prompt arguments with a prompt or one clear sentence', async () => {
    const failures = await oddPromptSweep(target(), {
      base: (a) => (a.required ? 'HEAD' : undefined),
      values: (name) => (name === 'repo_path' ? oddRepos(w) : oddRevisions(w)),
    });
    expect(failures).toEqual([]);
  }, 120_000);

  it('completes odd values to candidates or one clear sentence', async () => {
    const failures = await oddCompletionSweep(target(), {
      templates: true,
      // A prefix typed alone and in each odd repository (named as the prompts and the templates name it), then odd paths.
      tries: [
        'ma',
        ...oddRepos(w).map((repo) => ({ value: 'ma', context: { repo_path: repo, repo } })),
        ...oddFilePaths(w),
      ],
    });
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
    const failures = await oddResourceSweep(target(), { uris, subscribe: (uri) => uri.endsWith('/status') });
    expect(failures).toEqual([]);
  }, 180_000);
});
