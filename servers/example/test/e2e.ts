/**
 * The notes server's every-feature scenario: one session that touches each tool, the resources, the
 * prompt, completion, sampling with tools, elicitation, a subscription, progress, logging and
 * cancellation. The repository's end-to-end layer runs it on the built bin over stdio and HTTP, in
 * both eras.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
  textOf,
} from '@mcpkit/core/testing';
import { expect } from 'vitest';

const TOOLS = ['delete_note', 'list_notes', 'read_note', 'search_notes', 'summarize_notes', 'write_note'];

async function everyFeature(ctx: ScenarioContext): Promise<void> {
  const { session, model, elicitor } = ctx;
  const dir = join(ctx.dir, 'notes');
  const { client } = session;

  // Tools: six of them, in three pages; one works, one fails cleanly without leaking a path.
  const tools = await listPaged(ctx, 'tools/list', 3);
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  expect(textOf(await session.callTool('read_note', { name: 'alpha' }))).toContain('apples');
  expectToolError(await session.callTool('read_note', { name: '../outside/secret' }), dir);

  // Resources and templates: paged list, template list, a read.
  const resources = await listPaged(ctx, 'resources/list', 2);
  expect(resources.map((r) => r.uri)).toEqual(['note:///alpha', 'note:///beta', 'note:///gamma']);
  const templates = await listPaged(ctx, 'resources/templates/list', 1);
  expect(templates.map((t) => t.uriTemplate)).toContain('note:///{name}');
  const read = await client.readResource({ uri: 'note:///beta' });
  expect(read.contents[0]).toMatchObject({ uri: 'note:///beta', text: expect.stringContaining('Bananas') });

  // Completion: a template variable and a prompt argument.
  const byTemplate = await client.complete({
    ref: { type: 'ref/resource', uri: 'note:///{name}' },
    argument: { name: 'name', value: 'g' },
  });
  expect(byTemplate.completion.values).toEqual(['gamma']);
  const byPrompt = await client.complete({
    ref: { type: 'ref/prompt', name: 'review_note' },
    argument: { name: 'name', value: 'al' },
  });
  expect(byPrompt.completion.values).toEqual(['alpha']);

  // Prompts.
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('review_note');
  const prompt = await client.getPrompt({
    name: 'review_note',
    arguments: { name: 'alpha', focus: 'typos' },
  });
  expect(JSON.stringify(prompt.messages)).toContain('apples');

  // Sampling with tools: the model reads a note through a tool_use round, then answers.
  const summary = await session.callTool('summarize_notes', { question: 'Which fruit?' });
  expect(summary.structuredContent).toMatchObject({ answer: 'read it', notesRead: 1, sampled: true });
  expect(model.requests.length).toBe(2);
  expect(JSON.stringify(model.requests[1]?.messages)).toContain('tool_result');

  // Elicitation: replacing a note asks first; a decline keeps it, an accept replaces it.
  const note = join(dir, 'e2e.md');
  expect(textOf(await session.callTool('write_note', { name: 'e2e', text: 'one' }))).toContain('Saved');
  elicitor.next = 'decline';
  expect(textOf(await session.callTool('write_note', { name: 'e2e', text: 'two' }))).toContain('declined');
  expect(await readFile(note, 'utf8')).toBe('one');
  elicitor.next = 'accept';
  expect(textOf(await session.callTool('write_note', { name: 'e2e', text: 'two' }))).toContain('Saved');
  expect(await readFile(note, 'utf8')).toBe('two');
  expect(elicitor.asked).toEqual(['Replace the note "e2e"?', 'Replace the note "e2e"?']);

  // Subscription: a change made outside the server reaches the client.
  await expectResourceUpdated(ctx, 'note:///e2e', (n) => writeFile(note, `changed outside ${n}`));

  // Progress: one report per note.
  // A pause per note puts the reports well before the result: the SDK can drop a progress
  // notification that arrives right before its result (typescript-sdk #2580).
  const { result, reports } = await callWithProgress(ctx, 'search_notes', { query: 'apples', delayMs: 50 });
  expect((result.structuredContent as { hits: unknown[] }).hits).toHaveLength(2);
  expect(reports.length).toBeGreaterThan(0);

  // Logging by the era's rule.
  const log = await expectLogMessage(ctx, 'search_notes', { query: 'apples' });
  expect(JSON.stringify(log.params)).toContain('hits');

  // Cancellation: a search slowed to 2 s per note stops when cancelled.
  await expectCancelled(ctx, 'search_notes', { query: 'x', delayMs: 2000 }, { after: 300 });

  elicitor.next = 'accept';
  expect(textOf(await session.callTool('delete_note', { name: 'e2e' }))).toContain('Deleted');
}

export const scenario = defineScenario({
  async setup(base) {
    const dir = join(base, 'notes');
    await mkdir(dir);
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.md'), 'top secret\n');
    await writeFile(join(dir, 'alpha.md'), '# Alpha\nThe first note mentions apples.\n');
    await writeFile(join(dir, 'beta.md'), '# Beta\nBananas, and more apples.\n');
    await writeFile(join(dir, 'gamma.md'), '# Gamma\nNothing fruity here.\n');
    return { args: [dir], roots: [dir] };
  },
  model: { toolCalls: [{ name: 'read_note', input: { name: 'alpha' } }], answer: () => 'read it' },
  run: everyFeature,
  task: () => ({
    tool: 'search_notes',
    args: { query: 'apples' },
    expectText: 'alpha:2: The first note mentions apples.',
    cancelArgs: { query: 'apples', delayMs: 2000 },
  }),
});
