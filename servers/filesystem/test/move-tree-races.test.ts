/**
 * A move between file systems copies the tree through descriptors: a subdirectory, or a file,
 * swapped for a symbolic link to the outside while the copy runs fails the move with one sentence,
 * brings nothing from outside in, changes nothing outside and leaves no half copy behind; a copy
 * directory swapped for a link once it is filled lends nothing outside its mode; and the source is
 * removed only while it is the directory that was copied, and in it only what was copied. Each
 * swap runs right before the copy's own call on that entry (see `tree-fs-layer.ts`); the move is
 * made to cross file systems by an EXDEV from the first rename.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { world } from './harness.js';
import { ERAS, expectError, ok } from './io-kit.js';
import { realHash as hash, realFs as real, type TreeLayer } from './tree-fs-layer.js';
import { treeSession } from './tree-kit.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));

/** Every file content under `dir`, read without the layer. */
async function contents(dir: string): Promise<string> {
  const fs = await real();
  let all = '';
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) all += await fs.readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return all;
}

describe.each(ERAS)('a tree swapped while a move copies it, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let session: TestSession;
  let close: () => Promise<void>;

  beforeEach(async () => {
    w = await world();
    top = join(w.allowed, 'top');
    await mkdir(join(top, 'sub'), { recursive: true });
    await writeFile(join(top, 'a.txt'), 'a');
    await writeFile(join(top, 'sub', 'x.txt'), 'x');
    layer.crossing.add(top);
    ({ session, close } = await treeSession(w, era, layer));
  });
  afterEach(async () => {
    await close();
    await w.cleanup();
  });

  /**
   * Runs `swap` once, right before the first `name` call on `path` (a real path, or a pattern) that
   * comes after the copy has begun (its first `mkdir`): the walk before it is not the target.
   */
  const armSwap = (name: string, path: string | RegExp, swap: () => void) => {
    let copying = false;
    layer.before = (call, at) => {
      if (call === 'mkdir') copying = true;
      if (!copying || call !== name || !(typeof path === 'string' ? at === path : path.test(at))) return;
      layer.before = undefined;
      swap();
    };
  };

  const move = () => session.callTool('move_file', { source: top, destination: join(w.allowed, 'moved') });

  const expectRefused = async (outsideBefore: string) => {
    expect(expectError(await move(), w, undefined, [top])).toMatch(/changed on disk while it was being used/);
    expect(layer.before).toBeUndefined();
    expect(await (await real()).readdir(w.allowed)).toEqual(['top']);
    expect(await contents(w.allowed)).not.toContain('top secret');
    expect(await hash(w.outside)).toBe(outsideBefore);
  };

  it('fails when a subdirectory is swapped for a link to the outside before it is entered', async () => {
    const outsideBefore = await hash(w.outside);
    const sub = join(top, 'sub');
    armSwap('open', sub, () => {
      renameSync(sub, `${sub}_old`);
      symlinkSync(w.outside, sub);
    });
    await expectRefused(outsideBefore);
  });

  it('fails when a file is swapped for a link to a secret before it is read', async () => {
    const outsideBefore = await hash(w.outside);
    const file = join(top, 'a.txt');
    armSwap('open', file, () => {
      renameSync(file, `${file}_old`);
      symlinkSync(join(w.outside, 'secret.txt'), file);
    });
    await expectRefused(outsideBefore);
  });

  it('lends nothing outside a mode when a filled copy directory is swapped for a link to it', async () => {
    await chmod(join(w.outside, 'secret.txt'), 0o600);
    await chmod(join(top, 'sub'), 0o777);
    // sub is copied last: once its file is in, the next look at its copy is for its mode.
    layer.last.add('sub');
    const outsideBefore = await hash(w.outside);
    const topBefore = await hash(top);
    const copySub = new RegExp(`^${w.allowed}/\\.moved\\.[0-9a-f]+\\.tmp/sub$`);
    let filled = false;
    layer.before = (call, at) => {
      if (call === 'open' && at === join(top, 'sub', 'x.txt')) filled = true;
      if (!filled || !copySub.test(at)) return;
      layer.before = undefined;
      renameSync(at, `${at}_old`);
      symlinkSync(join(w.outside, 'secret.txt'), at);
    };
    const answer = await move();
    expect(layer.before).toBeUndefined();
    expect(await hash(w.outside)).toBe(outsideBefore);
    expect(await hash(top)).toBe(topBefore);
    expect(expectError(answer, w, undefined, [top])).toMatch(
      /^"allowed\/moved\/sub" changed on disk while it was being used/,
    );
  });

  it('keeps a source replaced by another directory during the copy, and says so', async () => {
    const outsideBefore = await hash(w.outside);
    armSwap('open', join(top, 'a.txt'), () => {
      renameSync(top, `${top}_old`);
      mkdirSync(top);
      writeFileSync(join(top, 'precious.txt'), 'never copied');
    });
    const answer = await move();
    const fs = await real();
    expect(await fs.readdir(top)).toEqual(['precious.txt']);
    expect(expectError(answer, w, undefined, [top])).toBe(
      'The copy of "allowed/top" is in place at "allowed/moved", but "allowed/top" was not removed: it was moved away or replaced while it was being copied; check both and delete what you do not need.',
    );
    expect((await fs.readdir(`${top}_old`)).sort()).toEqual(['a.txt', 'sub']);
    expect((await fs.readdir(join(w.allowed, 'moved'))).sort()).toEqual(['a.txt', 'sub']);
    expect(await contents(join(w.allowed, 'moved'))).not.toContain('never copied');
    expect(await hash(w.outside)).toBe(outsideBefore);
  });

  it('leaves entries added to the source during the copy, and names them', async () => {
    const outsideBefore = await hash(w.outside);
    // sub is copied before a.txt, so what is added then to either is never copied.
    layer.last.add('a.txt');
    armSwap('open', join(top, 'a.txt'), () => {
      writeFileSync(join(top, 'new.txt'), 'added meanwhile');
      writeFileSync(join(top, 'sub', 'late.txt'), 'added meanwhile');
    });
    const answer = await move();
    const fs = await real();
    expect((await fs.readdir(top)).sort()).toEqual(['new.txt', 'sub']);
    expect(await fs.readdir(join(top, 'sub'))).toEqual(['late.txt']);
    const text = ok(answer);
    expect(text).toMatch(
      /^Moved "[^"]+" to "[^"]+"\. 2 entries that appeared or changed in "[^"]+" while it was being copied were not moved and are still there \(/,
    );
    expect(text).toContain('"allowed/top/new.txt"');
    expect(text).toContain('"allowed/top/sub/late.txt"');
    expect(await contents(join(w.allowed, 'moved'))).not.toContain('added meanwhile');
    expect(await hash(w.outside)).toBe(outsideBefore);
  });
});
