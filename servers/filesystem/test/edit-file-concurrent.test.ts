/**
 * edit_file against a writer that changes the file while the edit is being written: the new
 * content is synced to a temporary file first, and the file is read again right before the rename.
 * The other writer is made deterministic by running it from inside the fsync of that temporary file.
 */
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editFile } from '../src/tools/edit-file.js';
import { fsApp, textOf, treeHash, world } from './harness.js';

const meanwhile = vi.hoisted(() => ({ act: undefined as (() => void) | undefined, fsyncs: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const fsync = (...args: Parameters<typeof real.fsync>) => {
    meanwhile.fsyncs++;
    const act = meanwhile.act;
    meanwhile.act = undefined;
    act?.();
    return real.fsync(...args);
  };
  return { ...real, fsync, default: { ...real, fsync } };
});

type World = Awaited<ReturnType<typeof world>>;

describe.each(['legacy', 'modern'] as const)('edit_file with a concurrent writer, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession;
  const file = () => join(w.allowed, 'f.txt');
  const edit = () =>
    session.callTool('edit_file', { path: 'f.txt', edits: [{ oldText: 'one', newText: 'mine' }] });

  beforeEach(async () => {
    w = await world();
    await writeFile(file(), 'one\ntwo\n');
    app = await fsApp([w.allowed], [editFile]);
    session = await connect(app, { era });
    meanwhile.act = undefined;
    meanwhile.fsyncs = 0;
  });
  afterEach(async () => {
    meanwhile.act = undefined;
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it('syncs the new content once and writes it when nobody interferes', async () => {
    const r = await edit();
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(meanwhile.fsyncs).toBe(1);
    expect(await readFile(file(), 'utf8')).toBe('mine\ntwo\n');
    expect(await readdir(w.allowed)).toEqual(['f.txt']);
  });

  it('refuses, keeping the other change, when the file is rewritten (same size) during the write', async () => {
    meanwhile.act = () => writeFileSync(file(), 'uno\ntwo\n');
    const r = await edit();
    expect(meanwhile.fsyncs).toBe(1);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('"allowed/f.txt" changed while editing; read it again and redo the edit.');
    expect(await readFile(file(), 'utf8')).toBe('uno\ntwo\n');
    expect(await readdir(w.allowed)).toEqual(['f.txt']);
  });

  it('refuses when the file is swapped for a link to outside during the write; outside untouched', async () => {
    const outsideBefore = await treeHash(w.outside);
    await writeFile(join(w.outside, 'f.txt'), 'one\ntwo\n');
    const outsideWithCopy = await treeHash(w.outside);
    expect(outsideWithCopy).not.toBe(outsideBefore);
    meanwhile.act = () => {
      renameSync(file(), join(w.allowed, 'moved.txt'));
      symlinkSync(join(w.outside, 'f.txt'), file());
    };
    const r = await edit();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('changed while editing');
    expect(textOf(r)).not.toContain(w.base);
    expect(await treeHash(w.outside)).toBe(outsideWithCopy);
    expect((await readdir(w.allowed)).sort()).toEqual(['f.txt', 'moved.txt']);
    expect(await readFile(join(w.allowed, 'moved.txt'), 'utf8')).toBe('one\ntwo\n');
  });
});
