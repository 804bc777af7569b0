/**
 * SlowPaths on Linux after the first read: the table is read again in the background once it is
 * a few seconds old, so no question waits for it, and a change is seen by the questions after.
 * For this file only, reading /proc/self/mountinfo, at once or in the background, is answered with
 * a stand-in text, counted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlowPaths } from '../src/roots/slow-paths.js';
import { LINUX, mountinfo } from './roots-slow-paths-kit.js';

/**
 * The stand-in text (an Error: the read fails), how often it was read, and how many of those
 * reads were synchronous, the caller waiting for them.
 */
const stand = vi.hoisted(() => ({
  mountinfo: undefined as string | Error | undefined,
  reads: 0,
  syncReads: 0,
}));

vi.mock('node:fs', async (importOriginal) => {
  const { fsWithStandIn } = await import('./roots-slow-paths-kit.js');
  return fsWithStandIn(await importOriginal<typeof import('node:fs')>(), stand);
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const original = real.readFile as (...args: unknown[]) => Promise<unknown>;
  const readFile = async (file: unknown, ...rest: unknown[]): Promise<unknown> => {
    const text = stand.mountinfo;
    if (file !== '/proc/self/mountinfo' || text === undefined) return original(file, ...rest);
    stand.reads += 1;
    if (text instanceof Error) throw text;
    return text;
  };
  return { ...real, default: { ...real, readFile }, readFile };
});

afterEach(() => {
  stand.mountinfo = undefined;
  stand.reads = 0;
  stand.syncReads = 0;
  vi.useRealTimers();
});

/**
 * Asks about `file` until the answer is `slow`, the clock moving on a minute before each question,
 * so a stale table is read again in the background between them (fake timers only).
 */
async function untilAnswer(paths: SlowPaths, file: string, slow: boolean): Promise<void> {
  await vi.waitFor(() => {
    vi.advanceTimersByTime(60_000);
    expect(paths.isSlow(file)).toBe(slow);
  });
}

describe('SlowPaths re-reading a Linux table', () => {
  it('reads the Linux table again in the background once it is a few seconds old, not on every question', async () => {
    vi.useFakeTimers();
    stand.mountinfo = mountinfo([['/', 'ext4']]);
    const paths = new SlowPaths('linux');
    await paths.ready();
    expect(paths.isSlow('/mnt/nfs/a')).toBe(false);
    const reads = stand.reads;
    stand.mountinfo = mountinfo(LINUX);
    // Just mounted, not yet seen: the table is still fresh.
    expect(paths.isSlow('/mnt/nfs/a')).toBe(false);
    expect(stand.reads).toBe(reads);
    vi.advanceTimersByTime(60_000);
    // The first question after that is answered from the table in hand, without waiting for a read...
    expect(paths.isSlow('/mnt/nfs/a')).toBe(false);
    expect(paths.anySlow).toBe(false);
    // ...and once the new table is in, from the new one, read once for every question meanwhile.
    await vi.waitFor(() => expect(paths.isSlow('/mnt/nfs/a')).toBe(true));
    expect(paths.isSlow('/mnt/nfs/cache/a')).toBe(false);
    expect(stand.reads).toBe(reads + 1);
  });

  it('never makes a question wait for a Linux table after the first', async () => {
    vi.useFakeTimers();
    stand.mountinfo = mountinfo([['/', 'ext4']]);
    const paths = new SlowPaths('linux');
    await paths.ready();
    expect(stand.syncReads).toBe(1);
    // The share comes and goes; each change is seen, through background reads only.
    for (const mounted of [true, false, true, false]) {
      stand.mountinfo = mountinfo(mounted ? LINUX : [['/', 'ext4']]);
      await untilAnswer(paths, '/mnt/nfs/a', mounted);
      expect(paths.anySlow).toBe(mounted);
    }
    expect(stand.reads).toBeGreaterThan(4);
    expect(stand.syncReads).toBe(1);
  });

  it('reads a Linux table at the first question when ready() was never awaited', () => {
    stand.mountinfo = mountinfo(LINUX);
    const paths = new SlowPaths('linux');
    expect(paths.isSlow('/home/alice/notes.txt')).toBe(false);
    expect(paths.isSlow('/mnt/nfs/a')).toBe(true);
    expect(stand.syncReads).toBe(1);
  });

  it('keeps the Linux table in hand when reading it again fails, and tries again later', async () => {
    vi.useFakeTimers();
    stand.mountinfo = mountinfo(LINUX);
    const paths = new SlowPaths('linux');
    await paths.ready();
    stand.mountinfo = new Error('EMFILE');
    vi.advanceTimersByTime(60_000);
    expect(paths.isSlow('/mnt/nfs/a')).toBe(true);
    await vi.waitFor(() => expect(stand.reads).toBe(2));
    // The failed read has been taken in (a turn of the event loop), and changed nothing.
    await vi.advanceTimersByTimeAsync(1);
    expect(paths.isSlow('/mnt/nfs/a')).toBe(true);
    // A later try sees the share unmounted.
    stand.mountinfo = mountinfo([['/', 'ext4']]);
    await untilAnswer(paths, '/mnt/nfs/a', false);
    expect(stand.syncReads).toBe(1);
  });

  it('keeps added paths across a background re-read', async () => {
    vi.useFakeTimers();
    stand.mountinfo = mountinfo([['/', 'ext4']]);
    const paths = new SlowPaths('linux');
    await paths.ready();
    paths.add('/srv/share');
    stand.mountinfo = mountinfo(LINUX);
    await untilAnswer(paths, '/mnt/nfs/a', true);
    expect(paths.isSlow('/srv/share/a')).toBe(true);
    paths.clearAdded();
    expect(paths.isSlow('/srv/share/a')).toBe(false);
    expect(paths.isSlow('/mnt/nfs/a')).toBe(true);
  });

  it('keeps the table fresh while no question comes, so the first call after a quiet hour sees a new share', async () => {
    vi.useFakeTimers();
    stand.mountinfo = mountinfo([['/', 'ext4']]);
    const paths = new SlowPaths('linux');
    await paths.ready();
    const reads = stand.reads;
    stand.mountinfo = mountinfo(LINUX);
    // An hour with no question at all: the table is still read again, in the background.
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(stand.reads).toBeGreaterThan(reads);
    expect(stand.syncReads).toBe(1);
    // The first question after it is answered from a table at most a few seconds old.
    expect(paths.isSlow('/mnt/nfs/a')).toBe(true);
  });
});
