/**
 * The git server's every-feature scenario: one session over a folder of three repositories that
 * lists and calls the tools, reads the resources, completes, gets both prompts, writes a commit
 * message with the client's model (which reads the staged diff through a tool) and commits it
 * once the user accepts, follows a change made outside, and stops a slow blame, git process and
 * all. The repository's end-to-end layer runs it on the built bin over stdio and HTTP, in both
 * eras, and runs a blame as a 2026 task, once to the end and once cancelled.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  callWithProgress,
  defineScenario,
  expectCancelled,
  expectLogMessage,
  expectResourceUpdated,
  expectToolError,
  listPaged,
  type ScenarioContext,
  type ScenarioFixture,
  textOf,
} from '@mcpkit/core/testing';
import { expect } from 'vitest';
import { expectGitKilledOnCancel } from './e2e-cancel.js';
import { makeSlowHistory, SLOW_FILE, SLOW_FILE_FIRST_LINE } from './e2e-history.js';
import { git, makeRepo } from './make-repo.js';

const TOOLS = [
  'git_add',
  'git_blame',
  'git_branch',
  'git_checkout',
  'git_commit',
  'git_create_branch',
  'git_diff',
  'git_diff_staged',
  'git_diff_unstaged',
  'git_generate_commit_message',
  'git_log',
  'git_reflog',
  'git_reset',
  'git_show',
  'git_stash',
  'git_status',
  'git_tag',
  'git_worktree_list',
];

/**
 * Commits of the slow repository. Its blame takes seconds of CPU on a two-core machine (it diffs
 * 600 versions of a 4 000-line file), far longer than any cancellation below waits; the import
 * takes well under a second.
 */
const SLOW_COMMITS = 600;

interface GitFixture extends ScenarioFixture {
  /** The allowed folder: never named by a call, so no answer may show it. */
  repos: string;
  app: string;
  slow: string;
  outside: string;
}

/** sha256 of every file directly in `dir`, by name. */
async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    out[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  }
  return out;
}

async function toolsAndErrors(ctx: ScenarioContext<GitFixture>): Promise<void> {
  const { session } = ctx;
  const { repos, app, outside } = ctx.fixture;
  // Eighteen tools, two per page.
  const tools = await listPaged(ctx, 'tools/list', 9);
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);

  const status = await session.callTool('git_status', { repo_path: 'repos/app' });
  expect(status.isError, textOf(status)).toBeFalsy();
  expect(textOf(status)).toContain('On branch main');
  expect(status.structuredContent).toMatchObject({ branch: 'main', staged: [], unstaged: [] });

  // A path out of the work tree, and a ref that is an option naming a file outside: each fails
  // with one sentence that shows neither the allowed folder nor a stack, and nothing is written.
  const before = await hashes(outside);
  const outOfTree = await session.callTool('git_blame', {
    repo_path: 'repos/app',
    path: '../../outside/secret.txt',
  });
  expectToolError(outOfTree, repos);
  const injected = await session.callTool('git_blame', {
    repo_path: 'repos/app',
    path: 'README.md',
    ref: `--output=${join(outside, 'written')}`,
  });
  expectToolError(injected, repos);
  expect(textOf(injected)).toContain('"-"');
  expect(await hashes(outside)).toEqual(before);
  expect(git(app, 'status', '--porcelain')).toBe('');
}

async function resourcesAndCompletion(ctx: ScenarioContext<GitFixture>): Promise<void> {
  const { client } = ctx.session;
  const { app } = ctx.fixture;
  const resources = await listPaged(ctx, 'resources/list', 2);
  expect(resources.map((r) => r.uri)).toEqual([
    'git://repos%2Fapp/status',
    'git://repos%2Fnotes/status',
    'git://repos%2Fslow/status',
  ]);
  const templates = await listPaged(ctx, 'resources/templates/list', 2);
  expect(templates.map((t) => t.uriTemplate).sort()).toEqual([
    'git://{repo}/blob/{ref}/{+path}',
    'git://{repo}/commit/{sha}',
    'git://{repo}/status',
  ]);
  const status = await client.readResource({ uri: 'git://repos%2Fapp/status' });
  expect(status.contents[0]).toMatchObject({ text: expect.stringContaining('On branch main') });
  const old = await client.readResource({ uri: 'git://repos%2Fapp/blob/v1/src/main.ts' });
  expect(old.contents[0]).toMatchObject({ mimeType: 'text/plain', text: 'export const a = 1;\n' });
  const first = git(app, 'rev-list', '--max-parents=0', 'HEAD').trim();
  const commit = await client.readResource({ uri: `git://repos%2Fapp/commit/${first.slice(0, 10)}` });
  expect(commit.contents[0]).toMatchObject({ text: expect.stringContaining('commit 1') });
  expect((commit.contents[0] as { text: string }).text).toContain('+export const a = 1;');

  // Completion of a file at a ref: the repository, then its refs, then the paths at that ref.
  const blob = { type: 'ref/resource' as const, uri: 'git://{repo}/blob/{ref}/{+path}' };
  const repo = await client.complete({ ref: blob, argument: { name: 'repo', value: 'repos/a' } });
  expect(repo.completion.values).toEqual(['repos/app']);
  const chosen = { repo: 'repos%2Fapp' };
  const refs = await client.complete({
    ref: blob,
    argument: { name: 'ref', value: '' },
    context: { arguments: chosen },
  });
  expect(refs.completion.values).toEqual(expect.arrayContaining(['main', 'feature', 'v1']));
  const atTag = await client.complete({
    ref: blob,
    argument: { name: 'path', value: '' },
    context: { arguments: { ...chosen, ref: 'v1' } },
  });
  expect([...atTag.completion.values].sort()).toEqual(['README.md', 'src/main.ts']);
  const atMain = await client.complete({
    ref: blob,
    argument: { name: 'path', value: 'do' },
    context: { arguments: { ...chosen, ref: 'main' } },
  });
  expect(atMain.completion.values).toEqual(['docs/guide.md']);

  // A prompt argument: the base branch of a review, from the repository already chosen.
  const base = await client.complete({
    ref: { type: 'ref/prompt', name: 'review_changes' },
    argument: { name: 'base', value: 'fea' },
    context: { arguments: { repo_path: 'repos/app' } },
  });
  expect(base.completion.values).toEqual(['feature']);
}

async function prompts(ctx: ScenarioContext<GitFixture>): Promise<void> {
  const { client } = ctx.session;
  const listed = await listPaged(ctx, 'prompts/list', 1);
  expect(listed.map((p) => p.name).sort()).toEqual(['release_notes', 'review_changes']);
  const review = await client.getPrompt({
    name: 'review_changes',
    arguments: { repo_path: 'repos/app', base: 'v1', focus: 'tests' },
  });
  const reviewText = JSON.stringify(review.messages);
  expect(reviewText).toContain('commit 3');
  expect(reviewText).toContain('+export const a = 2;');
  expect(reviewText).toContain('tests');
  const notes = await client.getPrompt({
    name: 'release_notes',
    arguments: { repo_path: 'repos/app', from: 'v1' },
  });
  const notesText = JSON.stringify(notes.messages);
  expect(notesText).toContain('- commit 2');
  expect(notesText).toContain('- commit 3');
  expect(notesText).not.toContain('- commit 1');
}

/** Sampling with a tool round, then the user's answer: accept commits, decline does not. */
async function commitMessage(ctx: ScenarioContext<GitFixture>): Promise<void> {
  const { session, model, elicitor } = ctx;
  const { app } = ctx.fixture;
  await writeFile(join(app, 'src/main.ts'), 'export const a = 42;\n');
  git(app, 'add', 'src/main.ts');
  elicitor.next = 'accept';
  const accepted = await session.callTool('git_generate_commit_message', {
    repo_path: 'repos/app',
    hint: 'the answer',
  });
  expect(accepted.isError, textOf(accepted)).toBeFalsy();
  expect(accepted.structuredContent).toMatchObject({ committed: true, message: 'Set a to 42' });
  expect(git(app, 'log', '-1', '--format=%s%n%H').split('\n').slice(0, 2)).toEqual([
    'Set a to 42',
    (accepted.structuredContent as { sha: string }).sha,
  ]);
  // The model asked for the staged diff of the file through a tool, and got it back.
  expect(model.requests.length).toBe(2);
  const round = JSON.stringify(model.requests[1]?.messages);
  expect(round).toContain('tool_result');
  expect(round).toContain('+export const a = 42;');
  expect(elicitor.asked.at(-1)).toContain('Commit with this message?');
  expect(elicitor.asked.at(-1)).toContain('Set a to 42');

  // Edit: the user rewrites the draft in the form, and the commit carries their words.
  await writeFile(join(app, 'src/main.ts'), 'export const a = 43;\n');
  git(app, 'add', 'src/main.ts');
  elicitor.content = { message: 'Set a to 43, as the user wrote it' };
  const edited = await session.callTool('git_generate_commit_message', { repo_path: 'repos/app' });
  expect(edited.structuredContent).toMatchObject({
    committed: true,
    message: 'Set a to 43, as the user wrote it',
  });
  expect(git(app, 'log', '-1', '--format=%s')).toContain('Set a to 43, as the user wrote it');

  await writeFile(join(app, 'src/main.ts'), 'export const a = 44;\n');
  git(app, 'add', 'src/main.ts');
  const head = git(app, 'rev-parse', 'HEAD');
  elicitor.next = 'decline';
  const declined = await session.callTool('git_generate_commit_message', { repo_path: 'repos/app' });
  expect(declined.structuredContent).toMatchObject({ committed: false });
  expect(textOf(declined)).toContain('declined');
  expect(git(app, 'rev-parse', 'HEAD')).toBe(head);
  expect(git(app, 'diff', '--cached', '--name-only')).toBe('src/main.ts\n');
  elicitor.next = 'accept';
}

async function everyFeature(ctx: ScenarioContext<GitFixture>): Promise<void> {
  const { app, slow } = ctx.fixture;
  await toolsAndErrors(ctx);
  await resourcesAndCompletion(ctx);
  await prompts(ctx);
  await commitMessage(ctx);

  // Subscription: staging a file from outside the server changes the index, and the status
  // resource's subscriber hears of it.
  await expectResourceUpdated(ctx, 'git://repos%2Fapp/status', async (n) => {
    await writeFile(join(app, 'outside-change.txt'), `change ${n}\n`);
    git(app, 'add', 'outside-change.txt');
  });

  // Progress: blame reports when it starts git and when it is done. An old ref keeps the blame
  // short yet long enough that the first report comes well before the result (the SDK can drop
  // a report that arrives right before its result: typescript-sdk #2580).
  const { result, reports } = await callWithProgress(ctx, 'git_blame', {
    repo_path: 'repos/slow',
    path: SLOW_FILE,
    ref: `main~${SLOW_COMMITS - 40}`,
  });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(textOf(result)).toContain(SLOW_FILE_FIRST_LINE);
  // The first report is the start of the blame (a 2026 call's values are offset by its round).
  const [start] = reports;
  expect(start?.message).toBe(`Blaming ${SLOW_FILE}`);
  expect(start?.progress).toBeLessThan(start?.total ?? 0);

  // Logging by the era's rule: blame says how many lines it read.
  const log = await expectLogMessage(ctx, 'git_blame', { repo_path: 'repos/app', path: 'README.md' });
  expect(JSON.stringify(log.params)).toContain('git_blame: 1 line of README.md');

  // Cancellation: the whole history's blame is stopped, and so is the git process doing it.
  const slowBlame = { repo_path: 'repos/slow', path: SLOW_FILE };
  await expectCancelled(ctx, 'git_blame', slowBlame, { after: 300 });
  await expectGitKilledOnCancel(ctx.session, join(slow, '.git'), 'git_blame', slowBlame);
}

export const scenario = defineScenario<GitFixture>({
  async setup(base) {
    const repos = join(base, 'repos');
    const app = await makeRepo(join(repos, 'app'), [
      { 'README.md': '# App\n', 'src/main.ts': 'export const a = 1;\n' },
      { 'src/main.ts': 'export const a = 2;\n' },
      { 'docs/guide.md': 'Read me first.\n' },
    ]);
    git(app, 'tag', 'v1', 'HEAD~2');
    git(app, 'branch', 'feature');
    await makeRepo(join(repos, 'notes'), [{ 'notes.md': 'Notes.\n' }]);
    const slow = await makeSlowHistory(join(repos, 'slow'), { commits: SLOW_COMMITS, lines: 4000 });
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'top secret\n');
    return { args: [repos], roots: [repos], repos, app, slow, outside };
  },
  model: {
    toolCalls: [{ name: 'staged_diff', input: { path: 'src/main.ts' } }],
    answer: () => 'Set a to 42',
  },
  run: everyFeature,
  task: () => ({
    tool: 'git_blame',
    args: { repo_path: 'repos/app', path: 'README.md' },
    expectText: '1 | # App',
    cancelArgs: { repo_path: 'repos/slow', path: SLOW_FILE },
  }),
});
