/**
 * The attack corpus through the tools, over the protocol in both eras: every tool the server lists
 * (src/tools/index.ts) is called on the hostile repository, once validly and then with every
 * injected value in every string argument, by a server started with no allowed config keys. No
 * marker may appear, no file may be created in the temporary folder or `outside/`, nothing under
 * `outside/` may change, and no output may carry the outside secret. A listed tool without an
 * entry in attack-tool-args.ts fails the corpus.
 */
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { connect, scriptedModel, type TestSession, textOf } from '@mcpkit/core/testing';
import type { CallToolResult, CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitApp } from '../src/server.js';
import { tools } from '../src/tools/index.js';
import { type AttackFixture, attackFixture, injectionValues } from './attack-kit.js';
import { submoduleWithFilter } from './attack-layouts.js';
import { mustFail, stringArgs, TOOL_CASES } from './attack-tool-args.js';
import { type HostileRepo, hostileRepo } from './hostile-repo.js';
import { git } from './make-repo.js';

/**
 * Tools whose output still carries a file the repository's configuration names (KNOWN GAP): their
 * test is `it.fails` until fixed. Empty since git_blame passes --no-ignore-revs-file.
 */
const READS_OUTSIDE_GAP = new Set<string>();

let fx: AttackFixture;
let hostile: HostileRepo;
let session: TestSession | undefined;
let before: Map<string, string>;
/** What the client's model does next: a valid tool loop by default, swapped by the model-injection test. */
let model = scriptedModel({ answer: () => 'Attack commit' });

async function open(era: 'legacy' | 'modern'): Promise<TestSession> {
  hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir);
  before = await fx.outsideState();
  const app = createGitApp({ roots: await RootSet.create([fx.repos]), allowConfigKeys: [] });
  session = await connect(app, {
    era,
    sampling: (params: CreateMessageRequestParams) => model.respond(params),
  });
  return session;
}

/** A call's result, or an error result when the protocol itself refused the arguments. */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return await (session as TestSession).callTool(name, args);
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: `protocol: ${String(error)}` }] };
  }
}

/** Nothing ran, nothing was created, nothing outside changed. */
async function expectNoEffect(where: string): Promise<void> {
  expect(await fx.markers(), `${where}: markers`).toEqual([]);
  expect(await fx.createdTargets(), `${where}: created files`).toEqual([]);
  expect(await fx.outsideState(), `${where}: outside/`).toEqual(before);
}

beforeEach(async () => {
  fx = await attackFixture();
  model = scriptedModel({ answer: () => 'Attack commit' });
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await fx.cleanup();
});

const listed = tools.map((t) => t.name);

describe('the argument table', () => {
  it('has an entry for every listed tool, covering each of its string arguments', () => {
    const missing = listed.filter((name) => !TOOL_CASES[name]);
    expect(missing, 'add these tools to TOOL_CASES in test/attack-tool-args.ts').toEqual([]);
    for (const tool of tools) {
      const kinds = TOOL_CASES[tool.name]?.kinds ?? {};
      const uncovered = [...stringArgs(tool.input).keys()].filter((arg) => !kinds[arg]);
      expect(uncovered, `${tool.name}: give these arguments a kind in TOOL_CASES`).toEqual([]);
    }
  });
});

describe.each(['legacy', 'modern'] as const)('tools on the hostile repository, %s era', (era) => {
  for (const tool of tools) {
    const entry = TOOL_CASES[tool.name];
    // A tool without an entry gets no calls here; the table test above fails for it instead.
    if (!entry) continue;

    it(`${tool.name}: a valid call runs nothing of the repository`, async () => {
      await open(era);
      const result = await call(tool.name, { ...entry.valid, repo_path: hostile.repo });
      if (!entry.mayFail) expect(result.isError, `${tool.name}: ${textOf(result)}`).toBeFalsy();
      await expectNoEffect(tool.name);
    });

    it(`${tool.name}: every injected value in every string argument is refused and acts on nothing`, async () => {
      await open(era);
      const values = injectionValues(fx.targets);
      const accepted: string[] = [];
      let i = 0;
      for (const [arg, shape] of stringArgs(tool.input)) {
        const kind = entry.kinds[arg] ?? 'ref';
        const base = { ...entry.valid, ...entry.argBase?.[arg], repo_path: hostile.repo };
        for (const [label, value] of values) {
          const args = { ...base, ...entry.fresh?.(i++), [arg]: shape === 'array' ? [value] : value };
          const result = await call(tool.name, args);
          const text = textOf(result);
          expect(text, `${tool.name}.${arg} = ${label}`).not.toMatch(/internal error/);
          if (mustFail(kind, label) && !result.isError) accepted.push(`${arg} = ${label}`);
        }
      }
      expect(accepted, `${tool.name}: injected values that were accepted`).toEqual([]);
      await expectNoEffect(tool.name);
    });

    const readsOutside = READS_OUTSIDE_GAP.has(tool.name) ? it.fails : it;
    readsOutside(`${tool.name}: never shows a file outside that the configuration names`, async () => {
      await open(era);
      git(hostile.repo, 'config', 'blame.ignoreRevsFile', join(fx.outside, 'secret.txt'));
      const result = await call(tool.name, { ...entry.valid, repo_path: hostile.repo });
      expect(textOf(result)).not.toContain('top secret');
      expect(JSON.stringify(result.structuredContent ?? {})).not.toContain('top secret');
      await expectNoEffect(tool.name);
    });
  }

  it.runIf(listed.includes('git_generate_commit_message'))(
    "git_generate_commit_message: the model's tool calls with injected paths act on nothing",
    async () => {
      await open(era);
      // The tool loop allows a few turns per call: two injected tool calls per call, no commit.
      for (const [label, path] of injectionValues(fx.targets)) {
        model = scriptedModel({
          toolCalls: [
            { name: 'staged_diff', input: { path } },
            { name: 'read_file_at_head', input: { path } },
          ],
          answer: () => 'Attack commit',
        });
        const result = await call('git_generate_commit_message', { repo_path: hostile.repo });
        expect(textOf(result), label).not.toMatch(/internal error/);
        expect(model.requests.length, `${label}: both tool calls answered`).toBe(3);
      }
      await expectNoEffect('git_generate_commit_message (model tool calls)');
    },
  );

  // Gaps this corpus found (see attack-domain.test.ts), closed: nothing runs through the tools either.
  const gaps: ReadonlyArray<readonly [string, (dir: string) => Promise<string>]> = [
    [
      'a filter driver named "x=y"',
      async (dir) => (await hostileRepo(dir, fx.markerDir, { filterName: 'x=y' })).repo,
    ],
    [
      'a filter in .git/config.worktree',
      async (dir) => (await hostileRepo(dir, fx.markerDir, { placement: 'worktree-config' })).repo,
    ],
    ["a submodule's own filter", (dir) => submoduleWithFilter(dir, join(fx.base, 'source'), fx.markerDir)],
  ];
  for (const [what, make] of gaps) {
    it(`git_status runs nothing of ${what}`, async () => {
      const repo = await make(join(fx.repos, 'gap'));
      const app = createGitApp({ roots: await RootSet.create([fx.repos]), allowConfigKeys: [] });
      session = await connect(app, { era });
      await call('git_status', { repo_path: repo });
      expect(await fx.markers()).toEqual([]);
    });
  }
});
