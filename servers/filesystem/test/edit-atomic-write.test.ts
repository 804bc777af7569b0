import {
  chmod,
  link,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { slowPaths } from '@mcpkit/core/roots';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWrite } from '../src/fs/atomic-write.js';
import { hasProcFd, PinnedDir } from '../src/fs/pinned.js';
import { treeHash, world } from './harness.js';

type World = Awaited<ReturnType<typeof world>>;

/** Small content takes the synchronous path, large (over 64 KiB) and slow-mount content the pooled one. */
const SIZES = [
  ['small', 'new text\n'],
  ['large', `${'x'.repeat(100 * 1024)}\n`],
] as const;

describe.each(SIZES)('atomicWrite, %s content', (_kind, content) => {
  let w: World;
  const file = () => join(w.allowed, 'f.txt');
  beforeEach(async () => {
    w = await world();
    await writeFile(file(), 'old text\n');
  });
  afterEach(() => w.cleanup());

  it('replaces the content, keeps the mode less setuid, and leaves no temporary file', async () => {
    await chmod(file(), 0o4750);
    await atomicWrite(file(), content, { display: 'allowed/f.txt' });
    expect(await readFile(file(), 'utf8')).toBe(content);
    expect((await stat(file())).mode & 0o7777).toBe(0o750);
    expect(await readdir(w.allowed)).toEqual(['f.txt']);
  });

  it('creates a missing file with the mode asked for', async () => {
    await atomicWrite(join(w.allowed, 'new.txt'), content, { mode: 0o600 });
    expect(await readFile(join(w.allowed, 'new.txt'), 'utf8')).toBe(content);
    expect((await stat(join(w.allowed, 'new.txt'))).mode & 0o777).toBe(0o600);
  });

  it('leaves a reader of the old file, and a hard link to it, with the old content', async () => {
    await link(file(), join(w.allowed, 'kept.txt'));
    const reader = await open(file(), 'r');
    try {
      await atomicWrite(file(), content);
      expect(await reader.readFile('utf8')).toBe('old text\n');
    } finally {
      await reader.close();
    }
    expect(await readFile(join(w.allowed, 'kept.txt'), 'utf8')).toBe('old text\n');
    expect(await readFile(file(), 'utf8')).toBe(content);
  });

  it('cancels before the rename when beforeReplace throws: target untouched, no temporary file', async () => {
    const before = await treeHash(w.allowed);
    let calls = 0;
    const error = await atomicWrite(file(), content, {
      beforeReplace: () => {
        calls++;
        throw new UserError('changed meanwhile');
      },
    }).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect((error as Error).message).toBe('changed meanwhile');
    expect(await treeHash(w.allowed)).toBe(before);
  });

  it('runs beforeReplace after the new content is complete on disk, before it is visible', async () => {
    let seen: string[] = [];
    await atomicWrite(file(), content, {
      beforeReplace: async () => {
        seen = await readdir(w.allowed);
        const temp = seen.find((name) => name.endsWith('.tmp'));
        expect(await readFile(join(w.allowed, temp!), 'utf8')).toBe(content);
        expect(await readFile(file(), 'utf8')).toBe('old text\n');
      },
    });
    expect(seen).toHaveLength(2);
    expect(await readFile(file(), 'utf8')).toBe(content);
  });

  it('replaces a symbolic link instead of writing through it', async () => {
    const outsideBefore = await treeHash(w.outside);
    await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak'));
    await atomicWrite(join(w.allowed, 'leak'), content);
    expect((await stat(join(w.allowed, 'leak'))).isFile()).toBe(true);
    expect(await readFile(join(w.allowed, 'leak'), 'utf8')).toBe(content);
    expect(await treeHash(w.outside)).toBe(outsideBefore);
  });

  it('refuses a directory, in one sentence', async () => {
    await mkdir(join(w.allowed, 'd'));
    const error = await atomicWrite(join(w.allowed, 'd'), content, { display: 'allowed/d' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('"allowed/d" is a directory, so it cannot be written as a file.');
  });

  it('writes through the same steps when the directory is on a slow mount', async () => {
    slowPaths.add(w.allowed);
    try {
      await chmod(file(), 0o640);
      await atomicWrite(file(), content);
      expect(await readFile(file(), 'utf8')).toBe(content);
      expect((await stat(file())).mode & 0o777).toBe(0o640);
      expect(await readdir(w.allowed)).toEqual(['f.txt']);
    } finally {
      slowPaths.clearAdded();
    }
  });
});

// Pinning needs /proc/self/fd; elsewhere the path is used as is (see pinned.ts).
describe.skipIf(!hasProcFd()).each(['open', 'openSync'] as const)('PinnedDir.%s', (how) => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.cleanup());
  const pin = async (real: string) =>
    how === 'open' ? PinnedDir.open(real, 'allowed/sub') : PinnedDir.openSync(real, 'allowed/sub');

  it('names entries of the directory that was opened, even after it is swapped for a link', async () => {
    const sub = join(w.allowed, 'sub');
    await mkdir(sub);
    const dir = await pin(sub);
    try {
      await rename(sub, join(w.allowed, 'moved'));
      await symlink(w.outside, sub);
      await writeFile(dir.entry('x.txt'), 'inside');
    } finally {
      await dir.close();
    }
    expect(await readFile(join(w.allowed, 'moved', 'x.txt'), 'utf8')).toBe('inside');
    expect(await readdir(w.outside)).toEqual(['secret.txt']);
  });

  it('refuses a directory already swapped for a link, and leaves a missing one ENOENT', async () => {
    const sub = join(w.allowed, 'sub');
    await symlink(w.outside, sub);
    const swapped = await pin(sub).catch((e: unknown) => e);
    expect(swapped).toBeInstanceOf(UserError);
    expect((swapped as Error).message).toContain('changed on disk while it was being used');
    const missing = await pin(join(w.allowed, 'nowhere')).catch((e: unknown) => e);
    expect((missing as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
