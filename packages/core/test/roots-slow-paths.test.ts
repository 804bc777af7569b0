/**
 * SlowPaths: which paths count as slow, on this machine's real table and on stand-in tables.
 * For this file only, reading /proc/self/mountinfo and running /sbin/mount can be answered with a
 * stand-in text, so mount-table.ts still parses it; while no stand-in is set both run for real,
 * so the first block reads this machine's own table. Reading it again in the background on Linux
 * is in roots-slow-paths-refresh.test.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlowPaths } from '../src/roots/slow-paths.js';
import { LINUX, mountinfo } from './roots-slow-paths-kit.js';

/** The stand-in texts (an Error: the read fails), and how often either was read. */
const stand = vi.hoisted(() => ({
  mountinfo: undefined as string | Error | undefined,
  listing: undefined as string | Error | undefined,
  reads: 0,
}));

vi.mock('node:fs', async (importOriginal) => {
  const { fsWithStandIn } = await import('./roots-slow-paths-kit.js');
  return fsWithStandIn(await importOriginal<typeof import('node:fs')>(), stand);
});

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  const original = real.execFile as unknown as (...args: unknown[]) => unknown;
  type Done = (error: Error | null, stdout: string, stderr: string) => void;
  const execFile = (file: unknown, args: unknown, options: unknown, done: Done): unknown => {
    const listing = stand.listing;
    if (file !== '/sbin/mount' || listing === undefined) return original(file, args, options, done);
    stand.reads += 1;
    // Answer later, as a child process would, but on a microtask so fake timers do not hold it.
    queueMicrotask(() => (listing instanceof Error ? done(listing, '', '') : done(null, listing, '')));
    return undefined;
  };
  return { ...real, default: { ...real, execFile }, execFile };
});

afterEach(() => {
  stand.mountinfo = undefined;
  stand.listing = undefined;
  stand.reads = 0;
  vi.useRealTimers();
});

/** Lines of the macOS `mount` listing for the given mount points and types. */
function listing(mounts: [string, string][]): string {
  return mounts.map(([point, type]) => `src on ${point} (${type}, nodev, nosuid)\n`).join('');
}

/** A directory name that exists on no machine, under the temp dir (it need not exist). */
const share = path.join(os.tmpdir(), 'mcpkit-slow-share-that-is-not-there');

describe('SlowPaths on this machine’s real table', () => {
  it('counts a path under an added directory as slow, and clearAdded forgets it', async () => {
    const paths = new SlowPaths('linux');
    await paths.ready();
    const file = path.join(share, 'a', 'b.txt');
    const before = paths.isSlow(file);
    paths.add(share);
    expect(paths.isSlow(share)).toBe(true);
    expect(paths.isSlow(file)).toBe(true);
    expect(paths.anySlow).toBe(true);
    paths.clearAdded();
    expect(paths.isSlow(file)).toBe(before);
  });

  it('matches an added directory by whole segments, not by string prefix', async () => {
    const paths = new SlowPaths('linux');
    await paths.ready();
    const lookAlike = `${share}-sibling${path.sep}x`;
    const before = paths.isSlow(lookAlike);
    paths.add(share);
    expect(paths.isSlow(lookAlike)).toBe(before);
  });

  it('takes an added directory with a trailing separator or a dot segment as the same directory', async () => {
    const paths = new SlowPaths('linux');
    paths.add(`${share}${path.sep}.${path.sep}`);
    await paths.ready();
    expect(paths.isSlow(path.join(share, 'x'))).toBe(true);
  });

  it('remembers a directory added before ready()', async () => {
    const paths = new SlowPaths('linux');
    paths.add(share);
    await paths.ready();
    expect(paths.isSlow(path.join(share, 'x'))).toBe(true);
  });

  it('refuses a relative directory', () => {
    expect(() => new SlowPaths('linux').add('relative/dir')).toThrow(TypeError);
  });
});

describe('SlowPaths before its table is read', () => {
  it('counts every path as slow on macOS until ready() has run', () => {
    const paths = new SlowPaths('darwin');
    expect(paths.isSlow('/')).toBe(true);
    expect(paths.isSlow('/Users/me/notes.txt')).toBe(true);
    expect(paths.anySlow).toBe(true);
  });

  it('settles ready() even where the mount program cannot run, and added paths still count', async () => {
    // On a machine without /sbin/mount the table is unreadable; a Mac reads its own.
    const paths = new SlowPaths('darwin');
    await paths.ready();
    paths.add(share);
    expect(paths.isSlow(path.join(share, 'x'))).toBe(true);
  });

  it('counts every path as slow on Windows until ready(), then only network shares', async () => {
    const paths = new SlowPaths('win32');
    expect(paths.isSlow('C:\\Users\\me')).toBe(true);
    await paths.ready();
    expect(paths.isSlow('\\\\fileserver\\public\\a.txt')).toBe(true);
    expect(paths.isSlow('//fileserver/public/a.txt')).toBe(true);
    expect(paths.isSlow('C:\\Users\\me\\a.txt')).toBe(false);
    expect(paths.isSlow('\\\\?\\C:\\Users\\me')).toBe(false);
    expect(paths.isSlow('\\\\.\\pipe\\x')).toBe(false);
    // A symbolic link may lead onto a share that no table lists.
    expect(paths.anySlow).toBe(true);
  });
});

describe('SlowPaths on a stand-in table', () => {
  it('lets the nearest mount point decide, a local mount inside a network one included', async () => {
    stand.mountinfo = mountinfo(LINUX);
    const paths = new SlowPaths('linux');
    await paths.ready();
    expect(paths.isSlow('/mnt/nfs')).toBe(true);
    expect(paths.isSlow('/mnt/nfs/projects/a.txt')).toBe(true);
    expect(paths.isSlow('/mnt/nfs/cache/a.txt')).toBe(false);
    expect(paths.isSlow('/home/alice/My Drive/doc.md')).toBe(true);
    expect(paths.isSlow('/net/host/x')).toBe(true);
    expect(paths.isSlow('/mnt/nfsx/a.txt')).toBe(false);
    expect(paths.isSlow('/home/alice/notes.txt')).toBe(false);
    expect(paths.anySlow).toBe(true);
  });

  it('says nothing is slow where no slow file system is mounted and none was added', async () => {
    stand.mountinfo = mountinfo([
      ['/', 'ext4'],
      ['/tmp', 'tmpfs'],
    ]);
    const paths = new SlowPaths('linux');
    await paths.ready();
    expect(paths.isSlow('/tmp/a')).toBe(false);
    expect(paths.anySlow).toBe(false);
    paths.add('/srv/share');
    expect(paths.anySlow).toBe(true);
    paths.clearAdded();
    expect(paths.anySlow).toBe(false);
  });

  it('lets an added directory inside a local mount override the mount', async () => {
    stand.mountinfo = mountinfo(LINUX);
    const paths = new SlowPaths('linux');
    await paths.ready();
    paths.add('/mnt/nfs/cache/remote');
    expect(paths.isSlow('/mnt/nfs/cache/remote/a')).toBe(true);
    expect(paths.isSlow('/mnt/nfs/cache/local/a')).toBe(false);
  });

  it('decides by the mount on top when two file systems are mounted on one point', async () => {
    // An NFS share mounted over a directory that was itself a mount point: the kernel lists the
    // newer mount later, and that is the one every call on the path goes to.
    stand.mountinfo = mountinfo([
      ['/', 'ext4'],
      ['/srv/share', 'ext4'],
      ['/srv/share', 'nfs4'],
    ]);
    const paths = new SlowPaths('linux');
    await paths.ready();
    expect(paths.isSlow('/srv/share/report.pdf')).toBe(true);
  });

  it('treats nothing but added paths as slow when the table cannot be read', async () => {
    stand.mountinfo = new Error('EACCES');
    const paths = new SlowPaths('linux');
    await paths.ready();
    expect(stand.reads).toBeGreaterThan(0);
    expect(paths.isSlow('/mnt/nfs/a')).toBe(false);
    paths.add('/mnt/nfs');
    expect(paths.isSlow('/mnt/nfs/a')).toBe(true);
  });

  it('reads the macOS table at ready(), once however often it is awaited', async () => {
    stand.listing = listing([
      ['/', 'apfs'],
      ['/System/Volumes/Data/home', 'autofs'],
      ['/Volumes/share', 'smbfs'],
    ]);
    const paths = new SlowPaths('darwin');
    await Promise.all([paths.ready(), paths.ready()]);
    await paths.ready();
    expect(stand.reads).toBe(1);
    expect(paths.isSlow('/Volumes/share/a.txt')).toBe(true);
    expect(paths.isSlow('/System/Volumes/Data/home/me')).toBe(true);
    expect(paths.isSlow('/Users/me/a.txt')).toBe(false);
  });

  it('counts nothing but added paths as slow on macOS when the mount program fails', async () => {
    stand.listing = new Error('spawn /sbin/mount ENOENT');
    const paths = new SlowPaths('darwin');
    await paths.ready();
    expect(paths.isSlow('/Volumes/share/a')).toBe(false);
    paths.add('/Volumes/share');
    expect(paths.isSlow('/Volumes/share/a')).toBe(true);
  });

  it('answers from the old macOS table while a stale one is read again in the background', async () => {
    vi.useFakeTimers();
    stand.listing = listing([
      ['/', 'apfs'],
      ['/Volumes/share', 'smbfs'],
    ]);
    const paths = new SlowPaths('darwin');
    await paths.ready();
    stand.listing = listing([['/', 'apfs']]);
    vi.advanceTimersByTime(10 * 60_000);
    // The share was unmounted; the first question still gets the old answer...
    expect(paths.isSlow('/Volumes/share/a')).toBe(true);
    // ...and once the new table is in, the new one, read once for both questions.
    await vi.waitFor(() => expect(paths.isSlow('/Volumes/share/a')).toBe(false));
    expect(stand.reads).toBe(2);
  });

  it('keeps the old macOS table when reading it again fails', async () => {
    vi.useFakeTimers();
    stand.listing = listing([
      ['/', 'apfs'],
      ['/Volumes/share', 'smbfs'],
    ]);
    const paths = new SlowPaths('darwin');
    await paths.ready();
    stand.listing = new Error('mount failed');
    vi.advanceTimersByTime(10 * 60_000);
    expect(paths.isSlow('/Volumes/share/a')).toBe(true);
    await vi.waitFor(() => expect(stand.reads).toBe(2));
    expect(paths.isSlow('/Volumes/share/a')).toBe(true);
  });

  it('never reads a table on Windows', async () => {
    stand.listing = listing([['/mnt/nfs', 'nfs']]);
    stand.mountinfo = mountinfo([['/mnt/nfs', 'nfs']]);
    const paths = new SlowPaths('win32');
    await paths.ready();
    expect(paths.isSlow('\\\\server\\share')).toBe(true);
    expect(paths.isSlow('D:\\data')).toBe(false);
    expect(stand.reads).toBe(0);
  });
});
