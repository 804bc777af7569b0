/**
 * The filesystem server's every-feature scenario: one session that touches reading, listing,
 * resources, completion, prompts, sampling with tools, elicitation, a subscription, progress,
 * logging and cancellation. The repository's end-to-end layer runs it on the built bin over stdio
 * and HTTP, in both eras.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  callWithProgress,
  defineScenario,
  expectCancelled,
  expectLogMessage,
  expectResourceUpdated,
  expectToolError,
  listPaged,
  type ScenarioContext,
  textOf,
} from '@mcpkit/core/testing';
import { expect } from 'vitest';

/** A few of the official server's tool names, which the server keeps. */
const OFFICIAL_TOOLS = [
  'read_text_file',
  'write_file',
  'edit_file',
  'list_directory',
  'directory_tree',
  'search_files',
];

/** The generated tree: enough files that a search walks for a while, each with one trap line. */
const TREE_DIRS = 20;
const FILES_PER_DIR = 50;
/** On this line `(a|aa)+$` backtracks for ever: a search with it is CPU-bound until stopped. */
const TRAP_LINE = `${'a'.repeat(64)}b`;

async function generateTree(root: string): Promise<void> {
  const body = `${'lorem ipsum dolor sit amet\n'.repeat(20)}${TRAP_LINE}\n`;
  for (let d = 0; d < TREE_DIRS; d++) {
    const dir = join(root, `d${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES_PER_DIR }, (_, f) => writeFile(join(dir, `f${f}.txt`), body)),
    );
  }
}

async function everyFeature(ctx: ScenarioContext): Promise<void> {
  const { session, model, elicitor } = ctx;
  const { client } = session;
  const dir = join(ctx.dir, 'allowed');
  const tree = join(dir, 'tree');

  // Tools: the official names are kept; the list comes in pages; one call works, one fails cleanly.
  const tools = await listPaged(ctx, 'tools/list', 3);
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(OFFICIAL_TOOLS));
  expect(textOf(await session.callTool('read_text_file', { path: join(dir, 'a.txt') }))).toContain('alpha');
  const escaped = await session.callTool('read_text_file', {
    path: join(dir, '..', 'outside', 'secret.txt'),
  });
  expectToolError(escaped, dir);

  // Resources: the top-level files, paged; the file:// template; a read.
  const aUri = pathToFileURL(join(dir, 'a.txt')).href;
  const resources = await listPaged(ctx, 'resources/list', 2);
  expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([aUri]));
  const templates = await listPaged(ctx, 'resources/templates/list', 1);
  expect(templates.map((t) => t.uriTemplate)).toContain('file://{+path}');
  const read = await client.readResource({ uri: aUri });
  expect(read.contents[0]).toMatchObject({ uri: aUri, text: expect.stringContaining('alpha') });

  // Completion: a path in the template, then in a prompt argument.
  const byTemplate = await client.complete({
    ref: { type: 'ref/resource', uri: 'file://{+path}' },
    argument: { name: 'path', value: join(dir, 'do') },
  });
  expect(byTemplate.completion.values).toContain(`${join(dir, 'docs')}/`);
  const byPrompt = await client.complete({
    ref: { type: 'ref/prompt', name: 'review_file' },
    argument: { name: 'path', value: join(dir, 'a') },
  });
  expect(byPrompt.completion.values).toContain(join(dir, 'a.txt'));

  // Prompts.
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  expect(prompts).toEqual(expect.arrayContaining(['review_file', 'explain_directory']));
  const prompt = await client.getPrompt({ name: 'review_file', arguments: { path: join(dir, 'a.txt') } });
  expect(JSON.stringify(prompt.messages)).toContain('alpha');

  // Sampling with tools: the model reads a file through a tool_use round, then answers.
  const summary = await session.callTool('summarize_directory', { path: join(dir, 'docs') });
  expect(summary.structuredContent).toMatchObject({ answer: 'looked', sampled: true, toolCalls: 1 });
  expect(model.requests.length).toBe(2);
  expect(JSON.stringify(model.requests[1]?.messages)).toContain('Guide');

  // Writing replaces a file in one call, as the official server does: nothing is asked.
  const file = join(dir, 'e2e.txt');
  expect(textOf(await session.callTool('write_file', { path: file, content: 'one' }))).toContain('Created');
  expect(textOf(await session.callTool('write_file', { path: file, content: 'two' }))).toContain('Replaced');
  expect(await readFile(file, 'utf8')).toBe('two');
  expect(elicitor.asked).toHaveLength(0);

  // Elicitation: deleting asks first; a decline keeps the file, an accept deletes it.
  elicitor.next = 'decline';
  expect(textOf(await session.callTool('delete_file', { path: file }))).toContain('declined');
  expect(await readFile(file, 'utf8')).toBe('two');
  elicitor.next = 'accept';
  expect(textOf(await session.callTool('delete_file', { path: file }))).toContain('Deleted');
  await expect(readFile(file, 'utf8')).rejects.toThrow();
  expect(elicitor.asked).toHaveLength(2);

  // Subscription: a change made outside the server reaches the client.
  await expectResourceUpdated(ctx, aUri, (n) => writeFile(join(dir, 'a.txt'), `alpha changed ${n}\n`));

  // Progress: a search over the generated tree reports the files it has searched.
  const { result, reports } = await callWithProgress(ctx, 'search_content', {
    path: tree,
    query: 'not-there',
  });
  expect(result.structuredContent).toMatchObject({ hits: [], filesSearched: TREE_DIRS * FILES_PER_DIR });
  expect(reports.length).toBeGreaterThan(0);

  // Logging: search_files reports what it scanned as an MCP log message, by each era's rule.
  const log = await expectLogMessage(ctx, 'search_files', { path: tree, pattern: '*.txt' });
  expect(JSON.stringify(log.params)).toContain('search_files');

  // Cancellation: a regex search that would spin for its whole 30 s budget stops when cancelled.
  await expectCancelled(
    ctx,
    'search_content',
    { path: tree, query: '(a|aa)+$', regex: true, timeoutMs: 30_000 },
    { after: 400, serverGoesIdle: true },
  );
}

export const scenario = defineScenario({
  async setup(base) {
    const dir = join(base, 'allowed');
    await mkdir(join(dir, 'docs'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.txt'), 'top secret\n');
    await writeFile(join(dir, 'a.txt'), 'alpha text\n');
    await writeFile(join(dir, 'b.md'), '# Beta\n');
    await writeFile(join(dir, 'c.json'), '{"gamma": 3}\n');
    await writeFile(join(dir, 'docs', 'guide.md'), '# Guide\nHow to use it.\n');
    await generateTree(join(dir, 'tree'));
    return { args: [dir], roots: [dir] };
  },
  model: {
    // Relative paths resolve against the first allowed directory: the fixture's.
    toolCalls: [{ name: 'read_text_file', input: { path: 'docs/guide.md' } }],
    answer: () => 'looked',
  },
  run: everyFeature,
  task: (base) => ({
    tool: 'search_content',
    args: { path: join(base, 'allowed'), query: 'How to use' },
    expectText: 'guide.md:2: How to use it.',
    // The catastrophic pattern of the cancellation step: it runs until its 30 s budget unless stopped.
    cancelArgs: { path: join(base, 'allowed', 'tree'), query: '(a|aa)+$', regex: true, timeoutMs: 30_000 },
  }),
});
