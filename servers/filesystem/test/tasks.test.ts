/**
 * search_content as a task (2026-07-28 with the tasks extension): a handle at once, the result
 * inlined by tasks/get; a refusal inside a task is a completed task with isError and the same
 * one-sentence error, no host path; without the extension the call answers directly.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { type TaskWire, taskWire, untilTask } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { leakedPaths, textOf, treeHash, world } from './harness.js';

let w: Awaited<ReturnType<typeof world>>;
let app: App;
let wire: TaskWire | undefined;

beforeEach(async () => {
  w = await world();
  await mkdir(join(w.allowed, 'src'));
  await writeFile(join(w.allowed, 'src', 'a.ts'), 'const needle = 1;\nconst other = 2;\n');
  await writeFile(join(w.allowed, 'b.md'), 'no match here\n');
  app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
});

afterEach(async () => {
  await wire?.close();
  wire = undefined;
  await app.close();
  await w.cleanup();
});

describe('search_content as a task', () => {
  it('answers with a task handle, then the hits on tasks/get', async () => {
    wire = await taskWire(app);
    const handle = await wire.request('tools/call', {
      name: 'search_content',
      arguments: { path: w.allowed, query: 'needle' },
    });
    expect(handle.resultType).toBe('task');
    const done = await untilTask(wire, handle.taskId, 'completed');
    expect(done.status).toBe('completed');
    expect(done.result.isError).toBeUndefined();
    expect(textOf(done.result)).toContain('a.ts:1: const needle = 1;');
  });

  it('refuses a path outside the roots inside a task as it does without one, naming no other host path', async () => {
    const before = await treeHash(w.outside);
    wire = await taskWire(app);
    const handle = await wire.request('tools/call', {
      name: 'search_content',
      arguments: { path: w.outside, query: 'secret' },
    });
    const done = await untilTask(wire, handle.taskId, 'completed');
    expect(done.status).toBe('completed');
    expect(done.result.isError).toBe(true);
    const text = textOf(done.result);
    expect(text).toMatch(/outside the allowed directories/);
    expect(leakedPaths(text, w.base, [w.outside])).toEqual([]);
    // Nothing else in the task (its status message, its metadata) names a host path.
    expect(JSON.stringify({ ...done, result: undefined })).not.toContain(w.base);
    expect(await treeHash(w.outside)).toBe(before);
  });

  it('answers directly when the client does not declare the extension', async () => {
    wire = await taskWire(app, { tasks: false });
    const direct = await wire.request('tools/call', {
      name: 'search_content',
      arguments: { path: w.allowed, query: 'needle' },
    });
    expect(direct.taskId).toBeUndefined();
    expect(textOf(direct)).toContain('a.ts:1: const needle = 1;');
  });
});
