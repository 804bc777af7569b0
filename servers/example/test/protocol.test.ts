import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkpoint } from '@mcpkit/core/progress';
import { connect, scriptedModel, type TestSession } from '@mcpkit/core/testing';
import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notesFixture, textOf, until, untilAborted } from './fixtures.js';

// search_notes hands its call.signal to checkpoint(); recording that (the real one still runs) lets
// a test see the cancellation reach the handler, not only the client give up on its answer.
vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  return { ...real, checkpoint: vi.fn(real.checkpoint) };
});

type Fixture = Awaited<ReturnType<typeof notesFixture>>;

describe.each(['legacy', 'modern'] as const)('example server, %s era, in memory', (era) => {
  let fx: Fixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('pages tools/list and resources/list with opaque cursors, and refuses a forged one', async () => {
    fx = await notesFixture({ pageSize: 2 });
    session = await connect(fx.app, { era });
    const first = await session.client.request({ method: 'tools/list', params: {} });
    expect(first.tools).toHaveLength(2);
    expect(first.nextCursor).toBeTypeOf('string');
    const all = await session.client.listTools();
    expect(all.tools.map((t) => t.name).sort()).toEqual(
      ['delete_note', 'list_notes', 'read_note', 'search_notes', 'summarize_notes', 'write_note'].sort(),
    );
    const resources = await session.client.request({ method: 'resources/list', params: {} });
    expect(resources.resources.map((r) => r.uri)).toEqual(['note:///alpha', 'note:///beta']);
    const forged = `${first.nextCursor!.slice(0, -2)}xx`;
    await expect(
      session.client.request({ method: 'tools/list', params: { cursor: forged } }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('pages a tool result with the same codec', async () => {
    fx = await notesFixture({ pageSize: 2 });
    session = await connect(fx.app, { era });
    const page1 = await session.callTool('list_notes');
    const s1 = page1.structuredContent as { notes: { name: string }[]; nextCursor?: string };
    expect(s1.notes.map((n) => n.name)).toEqual(['alpha', 'beta']);
    const page2 = await session.callTool('list_notes', { cursor: s1.nextCursor });
    expect((page2.structuredContent as { notes: { name: string }[] }).notes.map((n) => n.name)).toEqual([
      'gamma',
    ]);
    const bad = await session.callTool('list_notes', { cursor: 'v1.garbage' });
    expect(bad.isError).toBe(true);
  });

  it('reads a resource through the template and completes note names by prefix', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    const read = await session.client.readResource({ uri: 'note:///beta' });
    expect(read.contents[0]).toMatchObject({ uri: 'note:///beta', text: expect.stringContaining('Bananas') });
    const done = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'note:///{name}' },
      argument: { name: 'name', value: 'g' },
    });
    expect(done.completion.values).toEqual(['gamma']);
    await expect(session.client.readResource({ uri: 'note:///nope' })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('gets a prompt with a completable argument', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    const c = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'review_note' },
      argument: { name: 'name', value: 'al' },
    });
    expect(c.completion.values).toEqual(['alpha']);
    const p = await session.client.getPrompt({
      name: 'review_note',
      arguments: { name: 'alpha', focus: 'typos' },
    });
    expect(JSON.stringify(p.messages)).toContain('apples');
    expect(JSON.stringify(p.messages)).toContain('typos');
  });

  it('narrows to client roots and refuses everything once they exclude the notes', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era, roots: [fx.outside] });
    const r = await session.callTool('read_note', { name: 'alpha' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).not.toContain(fx.base);
  });

  it('keeps working with roots that include the notes', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era, roots: [fx.dir] });
    const r = await session.callTool('read_note', { name: 'alpha' });
    expect(textOf(r)).toContain('apples');
  });

  it('runs sampling with tools: the model reads a note, then answers', async () => {
    fx = await notesFixture();
    const model = scriptedModel({
      toolCalls: [{ name: 'read_note', input: { name: 'beta' } }],
      answer: (params) =>
        `saw ${JSON.stringify(params.messages).includes('Bananas') ? 'bananas' : 'nothing'}`,
    });
    session = await connect(fx.app, { era, sampling: model.respond });
    const r = await session.callTool('summarize_notes', { question: 'What fruit?' });
    expect(r.structuredContent).toMatchObject({ answer: 'saw bananas', notesRead: 1, sampled: true });
    // The last model turn must be offered no tools, so the loop always ends in text.
    expect(model.requests.length).toBe(2);
    expect(model.requests[0]!.tools?.map((t) => t.name)).toEqual(['read_note']);
  });

  it('falls back cleanly when the client cannot sample', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    const r = await session.callTool('summarize_notes', {});
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ sampled: false });
  });

  it('asks the user before deleting, and honours a decline', async () => {
    fx = await notesFixture();
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    session = await connect(fx.app, {
      era,
      elicitation: (params) => {
        asked.push(params.message);
        return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      },
    });
    const declined = await session.callTool('delete_note', { name: 'gamma', confirm: true });
    expect(textOf(declined)).toContain('kept');
    expect(await readFile(join(fx.dir, 'gamma.md'), 'utf8')).toContain('Gamma');
    answer = 'accept';
    const accepted = await session.callTool('delete_note', { name: 'gamma' });
    expect(textOf(accepted)).toContain('Deleted');
    await expect(readFile(join(fx.dir, 'gamma.md'))).rejects.toThrow();
    expect(asked).toEqual(['Delete the note "gamma"?', 'Delete the note "gamma"?']);
  });

  it('needs confirm: true when the client cannot ask', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    const refused = await session.callTool('delete_note', { name: 'gamma' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('confirm');
    const done = await session.callTool('delete_note', { name: 'gamma', confirm: true });
    expect(textOf(done)).toContain('Deleted');
  });

  // A cancel the handler never sees leaves the wait below to the generous test timeout.
  it('reports monotonic progress and stops when cancelled', { timeout: 30_000 }, async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    const seen: number[] = [];
    const r = await session.callTool(
      'search_notes',
      { query: 'apples' },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect((r.structuredContent as { hits: unknown[] }).hits).toHaveLength(2);
    expect(seen.length).toBeGreaterThan(0);
    const controller = new AbortController();
    const started = vi.mocked(checkpoint).mock.calls.length;
    const slow = session.callTool(
      'search_notes',
      { query: 'x', delayMs: 2000 },
      { signal: controller.signal },
    );
    // Cancel once the handler is running (it has made its checkpoint), so the cancel meets it.
    await until(() => vi.mocked(checkpoint).mock.calls.length > started);
    const signal = vi.mocked(checkpoint).mock.calls[started]?.[0];
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(false);
    controller.abort();
    // The client gives up at once (its own abort), and the server aborts the handler's signal.
    await expect(slow).rejects.toThrow(/aborted/);
    await untilAborted(signal as AbortSignal);
    expect(textOf(await session.callTool('list_notes'))).toContain('alpha');
  });

  it('sends resources/updated when a subscribed note changes outside, and stops after unsubscribe', async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    let close: () => Promise<void> = async () => {};
    if (era === 'legacy') {
      await session.client.subscribeResource({ uri: 'note:///alpha' });
      close = async () => void (await session?.client.unsubscribeResource({ uri: 'note:///alpha' }));
    } else {
      const sub = await session.client.listen({ resourceSubscriptions: ['note:///alpha'] });
      close = () => sub.close();
    }
    await vi_waitForWatch(fx);
    await writeFile(join(fx.dir, 'alpha.md'), '# Alpha\nchanged outside\n');
    const n = await session.notifications.waitFor(
      'notifications/resources/updated',
      (x) => x.params?.uri === 'note:///alpha',
    );
    expect(n.params?.uri).toBe('note:///alpha');
    await close();
    await expect.poll(() => fx.app.hub.stats.watches, { timeout: 3000 }).toBe(0);
  });

  it("sends MCP log messages by each era's rule", async () => {
    fx = await notesFixture();
    session = await connect(fx.app, { era });
    if (era === 'legacy') {
      await session.client.setLoggingLevel('info');
      await session.callTool('search_notes', { query: 'apples' });
    } else {
      await session.client.callTool({
        name: 'search_notes',
        arguments: { query: 'apples' },
        _meta: { [LOG_LEVEL_META_KEY]: 'info' },
      });
    }
    const log = await session.notifications.waitFor('notifications/message');
    expect(JSON.stringify(log.params)).toContain('hits');
  });

  it('hides writing tools in read-only mode', async () => {
    fx = await notesFixture({ readOnly: true });
    session = await connect(fx.app, { era });
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('write_note');
    expect(names).not.toContain('delete_note');
    expect(names).toContain('read_note');
  });
});

async function vi_waitForWatch(fx: Fixture): Promise<void> {
  await expect.poll(() => fx.app.hub.stats.watches, { timeout: 3000 }).toBe(1);
  // chokidar needs a moment after "ready" on some file systems before it sees a write.
  await new Promise((r) => setTimeout(r, 150));
}
