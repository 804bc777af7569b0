/**
 * A move between file systems that fails part way leaves nothing at the destination, read-only
 * directories in its copy included; what can be known before copying (a special file, a directory
 * that cannot be read) is refused before anything is made; and a permission problem is one
 * sentence naming where it is, for a move and for a recursive delete, never an internal error.
 *
 * Permissions only bind a process that is not root: run as root (as in CI), the calls that meet
 * them run with the effective user `nobody` (the tree is handed to it first), and the process is
 * root again before anything else happens.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { world } from './harness.js';
import { asker, ERAS, expectError, ok } from './io-kit.js';
import { realHash as hash, realFs as real, type TreeLayer } from './tree-fs-layer.js';
import { treeSession } from './tree-kit.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));

const NOBODY = 65534;
const ROOT = process.getuid?.() === 0;
/** The effective user and group, where this process can change them (root on Linux). */
const ids =
  process.platform === 'linux' && process.seteuid && process.setegid
    ? { user: process.seteuid.bind(process), group: process.setegid.bind(process) }
    : undefined;
const CAN_DROP = !ROOT || ids !== undefined;
const SKIP_REASON = 'needs a user that permissions bind: not root, or root able to act as nobody';

/** Runs `work` as a user that permissions bind, with `base` handed to that user first when root. */
async function asUser<T>(base: string, work: () => Promise<T>): Promise<T> {
  if (!ROOT || !ids) return work();
  execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, base]);
  ids.group(NOBODY);
  ids.user(NOBODY);
  try {
    return await work();
  } finally {
    ids.user(0);
    ids.group(0);
  }
}

describe.each(ERAS)('a tree move or delete that cannot go through, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let session: TestSession;
  let ask: ReturnType<typeof asker>;
  let close: () => Promise<void>;
  /** Directories the server made under the allowed directory. */
  const made: string[] = [];

  beforeEach(async () => {
    w = await world();
    top = join(w.allowed, 'top');
    await mkdir(join(top, 'sub'), { recursive: true });
    await writeFile(join(top, 'a.txt'), 'a');
    layer.crossing.add(top);
    layer.before = (call, at) => {
      if (call === 'mkdir' && at.startsWith(`${w.allowed}/`)) made.push(at);
    };
    ask = asker();
    ({ session, close } = await treeSession(w, era, layer, ask));
  });
  afterEach(async () => {
    made.length = 0;
    await close();
    await w.cleanup();
  });

  /** The move, with only the directories it makes recorded (not those the test set up). */
  const move = () => {
    made.length = 0;
    return session.callTool('move_file', { source: top, destination: join(w.allowed, 'moved') });
  };

  /** Adds top/sub/locked, with a file in it, a directory no one may read. */
  const lockSub = async () => {
    await mkdir(join(top, 'sub', 'locked'));
    await writeFile(join(top, 'sub', 'locked', 'x.txt'), 'x');
    await chmod(join(top, 'sub', 'locked'), 0o000);
  };

  it('removes its whole copy, read-only directories too, when a file cannot be read part way', async (ctx) => {
    ctx.skip(!CAN_DROP, SKIP_REASON);
    await mkdir(join(top, 'ro'));
    await writeFile(join(top, 'ro', 'f.txt'), 'f');
    await chmod(join(top, 'ro'), 0o555);
    await writeFile(join(top, 'sub', 'locked.txt'), 'no one may read this');
    await chmod(join(top, 'sub', 'locked.txt'), 0o000);
    // ro (and a.txt) are copied first, then sub meets the file it cannot read.
    layer.last.add('sub');
    const before = await hash(w.base);
    const answer = await asUser(w.base, move);
    expect(made.length).toBeGreaterThan(0);
    expect(await (await real()).readdir(w.allowed)).toEqual(['top']);
    expect(expectError(answer, w, undefined, [top])).toBe(
      'Nothing was moved: permission was denied at "allowed/top/sub/locked.txt"; check the permissions there and try again.',
    );
    expect(await hash(w.base)).toBe(before);
  });

  it('removes its whole copy when it fails after the copy has its read-only modes', async (ctx) => {
    ctx.skip(!CAN_DROP, SKIP_REASON);
    await mkdir(join(top, 'sub', 'ro'));
    await writeFile(join(top, 'sub', 'ro', 'f.txt'), 'f');
    await chmod(join(top, 'sub', 'ro'), 0o555);
    await chmod(join(top, 'sub'), 0o500);
    const before = await hash(w.base);
    // The last step, renaming the finished copy into place, fails.
    layer.before = (call, at) => {
      if (call === 'rename' && /\/\.moved\.[0-9a-f]+\.tmp$/.test(at)) {
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      }
    };
    expect(expectError(await asUser(w.base, move), w, undefined, [top])).toBe(
      'move_file failed because of an internal error; the server log has the details.',
    );
    expect(await (await real()).readdir(w.allowed)).toEqual(['top']);
    expect(await hash(w.base)).toBe(before);
  });

  it('refuses a move with a directory it cannot read before it makes anything', async (ctx) => {
    ctx.skip(!CAN_DROP, SKIP_REASON);
    await lockSub();
    const before = await hash(w.base);
    const answer = await asUser(w.base, move);
    expect(expectError(answer, w, undefined, [top])).toBe(
      'Nothing was moved: permission was denied at "allowed/top/sub/locked"; check the permissions there and try again.',
    );
    expect(made).toEqual([]);
    expect(await hash(w.base)).toBe(before);
  });

  it('refuses a recursive delete with a directory it cannot read, before asking', async (ctx) => {
    ctx.skip(!CAN_DROP, SKIP_REASON);
    await lockSub();
    const before = await hash(w.base);
    const answer = await asUser(w.base, () =>
      session.callTool('delete_file', { path: top, recursive: true }),
    );
    expect(expectError(answer, w, undefined, [top])).toBe(
      'Nothing was deleted: permission was denied at "allowed/top/sub/locked"; check the permissions there and try again.',
    );
    expect(ask.asked).toEqual([]);
    expect(await hash(w.base)).toBe(before);
  });

  it('counts a subdirectory removed while it is counted as listed, and deletes the rest', async () => {
    const sub = join(top, 'sub');
    await writeFile(join(sub, 'x.txt'), 'x');
    const outside = await hash(w.outside);
    layer.before = (call, at) => {
      if (call !== 'open' || at !== sub) return;
      layer.before = undefined;
      rmSync(sub, { recursive: true });
    };
    const text = ok(await session.callTool('delete_file', { path: top, recursive: true }));
    expect(layer.before).toBeUndefined();
    expect(text).toMatch(/^Deleted the directory "[^"]+" and the \d entr(y|ies) in it\.$/);
    expect(ask.asked).toEqual([`Delete the directory "${top}" and the 2 entries in it?`]);
    expect(await (await real()).readdir(w.allowed)).toEqual([]);
    expect(await hash(w.outside)).toBe(outside);
  });

  it('refuses a move holding a FIFO before it copies anything', async () => {
    execFileSync('mkfifo', [join(top, 'sub', 'pipe')]);
    const before = await hash(w.base);
    expect(expectError(await move(), w, undefined, [top])).toBe(
      'Nothing was moved: "allowed/top/sub/pipe" is a special file (a FIFO, socket or device), which a move to another file system cannot copy; move or delete it first.',
    );
    expect(made).toEqual([]);
    expect(await hash(w.base)).toBe(before);
  });
});
