import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, listAll, scriptedModel, type TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { leakedPaths, textOf, world } from './harness.js';

const ALL_TOOLS = [
  'apply_patch',
  'copy_file',
  'create_directory',
  'delete_file',
  'directory_tree',
  'edit_file',
  'get_file_info',
  'list_allowed_directories',
  'list_directory',
  'list_directory_with_sizes',
  'move_file',
  'read_file',
  'read_media_file',
  'read_multiple_files',
  'read_text_file',
  'search_content',
  'search_files',
  'summarize_directory',
  'write_file',
];

describe.each(['legacy', 'modern'] as const)('filesystem server, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let app: App;
  let session: TestSession | undefined;
  beforeEach(async () => {
    w = await world();
    await mkdir(join(w.allowed, 'src'));
    await writeFile(join(w.allowed, 'README.md'), '# Project\nA test project.\n');
    await writeFile(join(w.allowed, 'src', 'main.ts'), 'export const answer = 42;\n');
    await writeFile(join(w.allowed, '.env'), 'TOKEN=hunter2\n');
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]), notifyDebounceMs: 20 });
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await app.close();
    await w.cleanup();
  });

  it('offers every tool, each with a title, a description and annotations', async () => {
    session = await connect(app, { era });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.description, t.name).toBeTruthy();
      expect(t.annotations?.readOnlyHint, t.name).toBeTypeOf('boolean');
    }
  });

  it('hides every changing tool with --read-only', async () => {
    const ro = createFilesystemApp({ roots: await RootSet.create([w.allowed]), readOnly: true });
    session = await connect(ro, { era });
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    for (const n of [
      'write_file',
      'edit_file',
      'apply_patch',
      'create_directory',
      'copy_file',
      'move_file',
      'delete_file',
    ]) {
      expect(names).not.toContain(n);
    }
    expect(names).toContain('read_text_file');
    await ro.close();
  });

  it('lists, completes and reads file resources, and never lists secrets', async () => {
    session = await connect(app, { era });
    const { items } = await listAll(session.client, 'resources/list');
    const uris = items.map((r) => r.uri as string);
    expect(uris).toContain(pathToFileURL(join(w.allowed, 'README.md')).href);
    expect(uris.some((u) => u.endsWith('.env'))).toBe(false);
    const read = await session.client.readResource({
      uri: pathToFileURL(join(w.allowed, 'src', 'main.ts')).href,
    });
    expect(read.contents[0]).toMatchObject({ text: expect.stringContaining('answer = 42') });
    const done = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'file://{+path}' },
      argument: { name: 'path', value: `${w.allowed}/s` },
    });
    expect(done.completion.values).toEqual([`${w.allowed}/src/`]);
    await expect(
      session.client.readResource({ uri: pathToFileURL(join(w.outside, 'secret.txt')).href }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      session.client.readResource({ uri: pathToFileURL(join(w.allowed, '.env')).href }),
    ).rejects.toThrow();
  });

  it('gets both prompts with completable paths', async () => {
    session = await connect(app, { era });
    const c = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'explain_directory' },
      argument: { name: 'path', value: `${w.allowed}/` },
    });
    expect(c.completion.values).toEqual([`${w.allowed}/src/`]);
    const review = await session.client.getPrompt({
      name: 'review_file',
      arguments: { path: join(w.allowed, 'src', 'main.ts'), focus: 'tests' },
    });
    expect(JSON.stringify(review.messages)).toContain('answer = 42');
    const explain = await session.client.getPrompt({
      name: 'explain_directory',
      arguments: { path: w.allowed },
    });
    expect(JSON.stringify(explain.messages)).toContain('[DIR]  src');
  });

  it('summarizes a directory with sampling and tools, inside the roots only', async () => {
    const model = scriptedModel({
      toolCalls: [
        { name: 'read_text_file', input: { path: join(w.allowed, 'src', 'main.ts') } },
        { name: 'read_text_file', input: { path: join(w.outside, 'secret.txt') } },
      ],
      answer: (p) => (JSON.stringify(p.messages).includes('top secret') ? 'LEAKED' : 'answer is 42'),
    });
    session = await connect(app, { era, sampling: model.respond });
    const r = await session.callTool('summarize_directory', { path: w.allowed });
    expect(r.structuredContent).toMatchObject({ answer: 'answer is 42', sampled: true, toolCalls: 2 });
    expect(JSON.stringify(model.requests)).not.toContain(w.base.replace(/\/[^/]+$/, '/outside'));
  });

  it('narrows to client roots', async () => {
    session = await connect(app, { era, roots: [join(w.allowed, 'src')] });
    const inside = await session.callTool('read_text_file', { path: join(w.allowed, 'src', 'main.ts') });
    expect(textOf(inside)).toContain('42');
    const outsideRoots = await session.callTool('read_text_file', { path: join(w.allowed, 'README.md') });
    expect(outsideRoots.isError).toBe(true);
    // The error may quote the path the caller gave, but nothing else from the host.
    expect(leakedPaths(textOf(outsideRoots), w.base, [join(w.allowed, 'README.md')])).toEqual([]);
    const allowed = await session.callTool('list_allowed_directories');
    expect(textOf(allowed)).toContain(join(w.allowed, 'src'));
  });

  it('notifies a subscriber when a file changes outside', async () => {
    session = await connect(app, { era });
    const uri = pathToFileURL(join(w.allowed, 'README.md')).href;
    let close: () => Promise<void>;
    if (era === 'legacy') {
      await session.client.subscribeResource({ uri });
      close = async () => void (await session?.client.unsubscribeResource({ uri }));
    } else {
      const sub = await session.client.listen({ resourceSubscriptions: [uri] });
      close = () => sub.close();
    }
    await expect.poll(() => app.hub.stats.watches, { timeout: 3000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    await writeFile(join(w.allowed, 'README.md'), '# Changed\n');
    await session.notifications.waitFor('notifications/resources/updated', (n) => n.params?.uri === uri);
    await close();
    await expect.poll(() => app.hub.stats.watches, { timeout: 3000 }).toBe(0);
  });
});
