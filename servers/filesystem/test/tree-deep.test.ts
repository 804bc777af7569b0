/**
 * A tree deeper than a path can name (longer than PATH_MAX from the top) is counted, deleted and
 * moved to another file system all the same: every walk goes from directory to directory by
 * descriptor, never by the full path. Linux only (where /proc/self/fd lets Node do that).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasProcFd, O_PATH } from '../src/fs/pinned.js';
import { world } from './harness.js';
import { asker, ERAS, ok } from './io-kit.js';
import { realHash, type TreeLayer } from './tree-fs-layer.js';
import { treeSession } from './tree-kit.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));

const LEVELS = 20;
const NAME = 'd'.repeat(250);
const SKIP_REASON = 'needs /proc/self/fd (Linux) to build and walk a tree deeper than a path can name';

/** `top`/NAME/NAME/…/deep.txt, LEVELS directories down: made by descriptor, as a path could not reach it. */
function makeDeep(top: string): void {
  mkdirSync(top);
  const flags = O_PATH | constants.O_DIRECTORY;
  let fd = openSync(top, flags);
  for (let i = 0; i < LEVELS; i++) {
    mkdirSync(`/proc/self/fd/${fd}/${NAME}`);
    const next = openSync(`/proc/self/fd/${fd}/${NAME}`, flags);
    closeSync(fd);
    fd = next;
  }
  writeFileSync(`/proc/self/fd/${fd}/deep.txt`, 'deep');
  closeSync(fd);
}

describe.each(ERAS)('a tree deeper than a path can name, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let session: TestSession;
  let ask: ReturnType<typeof asker>;
  let close: () => Promise<void>;

  beforeEach(async (ctx) => {
    ctx.skip(!hasProcFd(), SKIP_REASON);
    w = await world();
    top = join(w.allowed, 'top');
    makeDeep(top);
    ask = asker();
    ({ session, close } = await treeSession(w, era, layer, ask));
  });
  afterEach(async () => {
    if (!hasProcFd()) return;
    await close();
    // GNU rm walks by descriptor too; fs.rm would stop at the path length.
    execFileSync('rm', ['-rf', w.base]);
  });

  const outsideHash = () => realHash(w.outside);

  it('counts and deletes it', async () => {
    const outside = await outsideHash();
    const text = ok(await session.callTool('delete_file', { path: top, recursive: true }));
    expect(text).toBe(`Deleted the directory "${top}" and the ${LEVELS + 1} entries in it.`);
    expect(ask.asked).toEqual([`Delete the directory "${top}" and the ${LEVELS + 1} entries in it?`]);
    expect(execFileSync('ls', ['-A', w.allowed], { encoding: 'utf8' })).toBe('');
    expect(await outsideHash()).toBe(outside);
  });

  it('moves it to another file system whole', async () => {
    layer.crossing.add(top);
    const outside = await outsideHash();
    const moved = join(w.allowed, 'moved');
    ok(await session.callTool('move_file', { source: top, destination: moved }));
    expect(execFileSync('ls', ['-A', w.allowed], { encoding: 'utf8' })).toBe('moved\n');
    const found = execFileSync('find', ['moved', '-name', 'deep.txt'], { cwd: w.allowed, encoding: 'utf8' });
    expect(found.split('/').length).toBe(LEVELS + 2);
    expect(await outsideHash()).toBe(outside);
  });
});
