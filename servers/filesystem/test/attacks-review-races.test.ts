/**
 * The review attack corpus, races: a directory swapped for a link between the check and the use
 * (TOCTOU), by a local process that can rename and link inside an allowed directory. Every race
 * asserts that the attack fails, that nothing outside the root changed (treeHash) and nothing came
 * in from outside, and that no secret and no host path outside leaks.
 *
 * Races are made deterministic: `node:fs/promises` (and `open` of `node:fs`) are wrapped, and a
 * test arms a swap (`sub` renamed away, a symbolic link to the outside directory put in its place)
 * that runs right before the first file operation after the path was checked.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  existsSync as syncExists,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { connect } from '@mcpkit/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { PinnedDir } from '../src/fs/pinned.js';
import { removeTree } from '../src/fs/remove-tree.js';
import { createFilesystemApp } from '../src/server.js';
import { type Era, expectNoLeak, SECRETS, type World } from './attacks-review-kit.js';
import { textOf, treeHash, world } from './harness.js';

// ---------------------------------------------------------------------------------------------
// The race hook: a pass-through wrapper of the file system calls the server makes.

interface Trap {
  /** Decides whether this call is the one to race; calls it rejects pass untouched. */
  when: (name: string, args: readonly unknown[]) => boolean;
  /** Matching calls to let through before firing. */
  skip: number;
  act: () => void;
}

const race = vi.hoisted(() => ({ trap: undefined as Trap | undefined, fired: 0 }));

function spring(name: string, args: readonly unknown[]): void {
  const trap = race.trap;
  if (!trap?.when(name, args)) return;
  if (trap.skip > 0) {
    trap.skip--;
    return;
  }
  race.trap = undefined;
  race.fired++;
  trap.act();
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const names = [
    'open',
    'opendir',
    'readdir',
    'rename',
    'mkdir',
    'rm',
    'rmdir',
    'unlink',
    'cp',
    'lstat',
    'symlink',
  ] as const;
  const wrapped: Record<string, unknown> = {};
  for (const name of names) {
    const fn = real[name] as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      spring(name, args);
      return fn(...args);
    };
  }
  return { ...real, ...wrapped, default: { ...real, ...wrapped } };
});

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const open = (...args: unknown[]) => {
    spring('fs.open', args);
    return (real.open as (...a: unknown[]) => unknown)(...args);
  };
  // The walk opens directories with openSync (an O_PATH open does no I/O).
  const openSync = (...args: unknown[]) => {
    spring('fs.openSync', args);
    return (real.openSync as (...a: unknown[]) => unknown)(...args);
  };
  return { ...real, open, openSync, default: { ...real, open, openSync } };
});

// The calls that use a checked path; lstat, stat and realpath (the checks themselves) are not.
const USES = new Set([
  'open',
  'fs.open',
  'fs.openSync',
  'opendir',
  'readdir',
  'rename',
  'mkdir',
  'rm',
  'rmdir',
  'unlink',
  'cp',
]);

/** Arms a swap of `dir` for a link to `target`, right before the first use (after `skip` uses). */
function armSwap(dir: string, target: string, options: Partial<Omit<Trap, 'act'>> = {}): void {
  race.trap = {
    when: options.when ?? ((name) => USES.has(name)),
    skip: options.skip ?? 0,
    act: () => {
      renameSync(dir, `${dir}_old`);
      symlinkSync(target, dir);
    },
  };
}

function disarm(): number {
  race.trap = undefined;
  const fired = race.fired;
  race.fired = 0;
  return fired;
}

/** No regular file under `dir` holds an outside secret: nothing was copied or moved in. */
function expectNothingPulledIn(dir: string): void {
  const visit = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const info = lstatSync(path);
      if (info.isDirectory()) visit(path);
      else if (info.isFile()) {
        const text = readFileSync(path, 'latin1');
        for (const secret of SECRETS) expect(text, path).not.toContain(secret);
      }
    }
  };
  visit(dir);
}

/** A world for one race: allowed/sub mirrors outside, and `sub` will become a link to outside. */
async function raceWorld() {
  const w = await world();
  const a = w.allowed;
  writeFileSync(join(a, 'a.txt'), 'a\n');
  mkdirSync(join(a, 'sub', 'dir'), { recursive: true });
  writeFileSync(join(a, 'sub', 'f.txt'), 'shared line\n');
  writeFileSync(join(a, 'sub', 'secret.txt'), 'harmless\n');
  writeFileSync(join(a, 'sub', 'dir', 'keep.txt'), 'inside\n');
  writeFileSync(join(w.outside, 'f.txt'), 'shared line\n');
  mkdirSync(join(w.outside, 'dir'));
  writeFileSync(join(w.outside, 'dir', 'keep.txt'), 'outside-only\n');
  writeFileSync(join(w.outside, 'outside-only.txt'), 'outside-only\n');
  const app = createFilesystemApp({ roots: await RootSet.create([a]) });
  const outsideHash = await treeHash(w.outside);
  return { w, app, outsideHash, sub: join(a, 'sub') };
}

interface Race {
  name: string;
  tool: string;
  args: (w: World) => Record<string, unknown>;
  /** Which use to race (default: the first call that uses the checked path). */
  trap?: Partial<Omit<Trap, 'act'>>;
}

const RACES: Race[] = [
  { name: 'write a new file', tool: 'write_file', args: () => ({ path: 'sub/new.txt', content: 'pwned' }) },
  {
    name: 'overwrite a file',
    tool: 'write_file',
    args: () => ({ path: 'sub/f.txt', content: 'pwned', confirm: true }),
  },
  {
    name: 'edit a file',
    tool: 'edit_file',
    args: () => ({ path: 'sub/f.txt', edits: [{ oldText: 'shared', newText: 'pwned' }] }),
  },
  { name: 'read a file', tool: 'read_text_file', args: () => ({ path: 'sub/secret.txt' }) },
  {
    name: 'read a file among several',
    tool: 'read_multiple_files',
    args: () => ({ paths: ['sub/secret.txt'] }),
  },
  {
    name: 'read a media file',
    tool: 'read_media_file',
    args: (w) => {
      writeFileSync(join(w.allowed, 'sub', 'i.png'), 'harmless');
      writeFileSync(join(w.outside, 'i.png'), 'top secret');
      return { path: 'sub/i.png' };
    },
  },
  {
    name: 'copy into the directory',
    tool: 'copy_file',
    args: () => ({ source: 'a.txt', destination: 'sub/c.txt' }),
  },
  {
    name: 'copy out of the directory',
    tool: 'copy_file',
    args: () => ({ source: 'sub/secret.txt', destination: 'copied.txt' }),
  },
  {
    name: 'move a file into the directory',
    tool: 'move_file',
    args: () => ({ source: 'a.txt', destination: 'sub/a.txt' }),
  },
  {
    name: 'move a file out of the directory',
    tool: 'move_file',
    args: () => ({ source: 'sub/f.txt', destination: 'pulled.txt' }),
  },
  { name: 'delete a file', tool: 'delete_file', args: () => ({ path: 'sub/f.txt', confirm: true }) },
  {
    name: 'delete a directory recursively',
    tool: 'delete_file',
    args: () => ({ path: 'sub/dir', recursive: true, confirm: true }),
  },
  { name: 'create directories', tool: 'create_directory', args: () => ({ path: 'sub/new/deeper' }) },
  {
    name: 'patch: create a file',
    tool: 'apply_patch',
    args: () => ({ patch: '--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1 @@\n+pwned\n' }),
  },
  {
    name: 'patch: delete a file',
    tool: 'apply_patch',
    args: () => ({ patch: '--- a/sub/f.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-shared line\n', confirm: true }),
  },
  {
    name: 'tree: a subdirectory swapped before it is listed',
    tool: 'directory_tree',
    args: () => ({ path: '.' }),
    // The root's listing is the first use; the subdirectory's is the second.
    trap: {
      when: (name, args) =>
        (name === 'readdir' || name === 'fs.open' || name === 'fs.openSync') &&
        !String(args[0]).startsWith('/proc/'),
      skip: 1,
    },
  },
  {
    name: 'search_files: a subdirectory swapped before it is listed',
    tool: 'search_files',
    args: () => ({ path: '.', pattern: '*' }),
    trap: {
      when: (name, args) =>
        (name === 'readdir' || name === 'fs.open' || name === 'fs.openSync') &&
        !String(args[0]).startsWith('/proc/'),
      skip: 1,
    },
  },
  {
    name: 'sizes: a subdirectory swapped before it is listed',
    tool: 'list_directory_with_sizes',
    args: () => ({ path: 'sub' }),
  },
];

describe.each(['legacy', 'modern'] as const)(
  'finding: parent swapped for a link mid-operation (%s era)',
  (era: Era) => {
    it.each(RACES)('$name ($tool)', async (race) => {
      const { w, app, sub } = await raceWorld();
      const session = await connect(app, { era });
      try {
        const args = race.args(w);
        const hashBefore = await treeHash(w.outside);
        armSwap(sub, w.outside, race.trap);
        const result = await session.callTool(race.tool, args);
        expect(disarm(), 'the swap ran').toBe(1);
        expectNoLeak(w, result, args);
        expect(await treeHash(w.outside)).toBe(hashBefore);
        // Nothing came in from outside either, and the directory that was checked is still inside.
        expectNothingPulledIn(w.allowed);
        expect(syncExists(join(w.allowed, 'sub_old'))).toBe(true);
      } finally {
        disarm();
        await session.close();
        await app.close();
        await w.cleanup();
      }
    });

    it('writes into the directory that was checked when it is swapped after being pinned', async () => {
      const { w, app, outsideHash, sub } = await raceWorld();
      const session = await connect(app, { era });
      try {
        // The first use pins the directory; the swap comes right after it.
        armSwap(sub, w.outside, { skip: 1 });
        const result = await session.callTool('write_file', { path: 'sub/new.txt', content: 'kept inside' });
        expect(disarm()).toBe(1);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(await treeHash(w.outside)).toBe(outsideHash);
        expect(await readFile(join(w.allowed, 'sub_old', 'new.txt'), 'utf8')).toBe('kept inside');
      } finally {
        disarm();
        await session.close();
        await app.close();
        await w.cleanup();
      }
    });
  },
);

describe('finding: a subdirectory swapped for a link while a tree is removed', () => {
  it('removes the link, never what it points to', async () => {
    const w = await world();
    try {
      const victim = join(w.allowed, 'victim');
      mkdirSync(join(victim, 'inner'), { recursive: true });
      writeFileSync(join(victim, 'inner', 'a.txt'), 'a');
      writeFileSync(join(victim, 'z.txt'), 'z');
      mkdirSync(join(w.outside, 'dir'));
      writeFileSync(join(w.outside, 'dir', 'keep.txt'), 'outside-only');
      const before = await treeHash(w.outside);
      // Between the lstat that finds `inner` a directory and the open that enters it.
      race.trap = {
        when: (name, args) => name === 'open' && String(args[0]).endsWith('/inner'),
        skip: 0,
        act: () => {
          renameSync(join(victim, 'inner'), join(w.allowed, 'moved-inner'));
          symlinkSync(join(w.outside, 'dir'), join(victim, 'inner'));
        },
      };
      const dir = await PinnedDir.open(w.allowed, 'allowed');
      try {
        await removeTree(dir, 'victim');
      } finally {
        await dir.close();
      }
      expect(disarm()).toBe(1);
      expect(syncExists(victim)).toBe(false);
      expect(await treeHash(w.outside)).toBe(before);
    } finally {
      disarm();
      await w.cleanup();
    }
  });
});
