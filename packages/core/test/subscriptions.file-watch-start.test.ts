/**
 * How a file watch starts: a directory's watch never looks at its entries (one of them may be the
 * mount point of a stalled network or FUSE mount, and a look there waits as long as the mount
 * does), a path not there yet is watched through its directory by name, and a watch that cannot
 * start in time refuses the subscription instead of holding it for ever. For this file only, every
 * `lstat` and directory watch the watcher makes is recorded, and `lstat` can be held below one
 * directory as a dead mount holds it. The real stalled mount is in servers/filesystem's
 * `stall-fuse-watch.test.ts`.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileWatchProvider, watchFile } from '../src/subscriptions/file-watch.js';
import { SubscriptionHub } from '../src/subscriptions/hub.js';

/** What the watcher asked the file system, and the held looks waiting for the test to let go. */
const spy = vi.hoisted(() => ({
  looked: [] as string[],
  watched: [] as string[],
  holdBelow: undefined as string | undefined,
  held: [] as (() => void)[],
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const lstat = async (path: string) => {
    spy.looked.push(path);
    const hold = spy.holdBelow;
    if (hold !== undefined && (path === hold || path.startsWith(`${hold}/`))) {
      await new Promise<void>((resolve) => spy.held.push(resolve));
    }
    return real.lstat(path);
  };
  return { ...real, default: { ...real, lstat }, lstat };
});

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const original = real.watch as (...args: unknown[]) => ReturnType<typeof real.watch>;
  const watch = (path: unknown, ...rest: unknown[]) => {
    spy.watched.push(String(path));
    return original(path, ...rest);
  };
  return { ...real, default: { ...real, watch }, watch };
});

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-watch-start-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hubs: SubscriptionHub[] = [];
afterEach(async () => {
  spy.holdBelow = undefined;
  for (const go of spy.held.splice(0)) go();
  for (const hub of hubs.splice(0)) await hub.close();
  spy.looked.length = 0;
  spy.watched.length = 0;
});

/** A hub watching `file:` URIs under the temp directory, recording the URIs it reports. */
function setup(startTimeoutMs?: number) {
  const hub = new SubscriptionHub({ debounceMs: 50 });
  hubs.push(hub);
  hub.addWatchProvider(
    fileWatchProvider({
      toPath: (uri) => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined),
      startTimeoutMs,
    }),
  );
  const updates: string[] = [];
  hub.addTarget({ resourceUpdated: (uri) => void updates.push(uri), listChanged() {} });
  return { hub, updates };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const osWatches = () => process.getActiveResourcesInfo().filter((name) => name === 'FSEventWrap').length;

let counter = 0;
/** A fresh directory holding three local files and a subdirectory standing for a mount point. */
async function folder(): Promise<{ path: string; uri: string; mount: string }> {
  const path = join(dir, `folder-${++counter}`);
  const mount = join(path, 'mnt');
  await mkdir(mount, { recursive: true });
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(path, name), name);
  return { path, uri: pathToFileURL(path).href, mount };
}

describe('a directory watch', () => {
  it('starts on one OS watch of the directory alone, never looking at an entry, and reports a local change', async () => {
    const { hub, updates } = setup();
    const { path, uri, mount } = await folder();
    const before = osWatches();
    // Held: were the mount point looked at, the watch could not start and this would time out.
    spy.holdBelow = mount;
    await hub.acquire({}, uri);
    expect(spy.looked).toEqual([path]);
    expect(spy.watched).toEqual([path]);
    expect(osWatches()).toBe(before + 1);

    await writeFile(join(path, 'b.txt'), 'changed');
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 3_000, interval: 10 });
    // Nothing was looked at to find out what changed either.
    expect(spy.looked.filter((p) => p !== path)).toEqual([]);
    expect(spy.held).toEqual([]);
  });

  it('does not report a change inside the mount point (or any subdirectory), nor editor scratch files', async () => {
    const { hub, updates } = setup();
    const { path, uri, mount } = await folder();
    await hub.acquire({}, uri);
    await writeFile(join(mount, 'inside.txt'), 'deep');
    await writeFile(join(path, '.a.txt.swp'), 'vim');
    await writeFile(join(path, 'a.txt~'), 'backup');
    await sleep(300);
    expect(updates).toEqual([]);
    await writeFile(join(path, 'new.txt'), 'new');
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 3_000, interval: 10 });
  });
});

describe('a path not there yet', () => {
  it('is watched through its directory by name: a sibling is not reported, its creation is', async () => {
    const { hub, updates } = setup();
    const { path } = await folder();
    const later = join(path, 'later.md');
    const uri = pathToFileURL(later).href;
    await hub.acquire({}, uri);
    expect(spy.watched).toEqual([path]);
    await writeFile(join(path, 'a.txt'), 'a sibling changed');
    await sleep(300);
    expect(updates).toEqual([]);
    await writeFile(later, 'now it is');
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 3_000, interval: 10 });
  });

  it('in a directory that is not there either, is refused with the hub’s sentence', async () => {
    const { hub } = setup();
    const uri = pathToFileURL(join(dir, 'no-such-folder', 'later.md')).href;
    await expect(hub.acquire({}, uri)).rejects.toThrow(
      `The resource "${uri}" cannot be watched for changes; read it again later instead.`,
    );
    expect(hub.stats.watches).toBe(0);
  });

  it('quotes an odd resource URI in its refusal escaped and cut', async () => {
    const { hub } = setup();
    const uri = `${pathToFileURL(join(dir, 'no-such-folder')).href}/\u202eevil\n${'x'.repeat(300)}`;
    const error = await hub.acquire({}, uri).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /^The resource "file:.*\\u202eevil\\nx+…" cannot be watched for changes; read it again later instead\.$/,
    );
    expect(error?.message).not.toMatch(/[\n\u202e]/);
    expect(hub.stats.watches).toBe(0);
  });
});

describe('a watch that cannot start', () => {
  it('refuses the subscription once the deadline passes, shares the stuck look, and leaves no watch behind', async () => {
    const { hub } = setup(100);
    const { path, uri } = await folder();
    const before = osWatches();
    spy.holdBelow = path;
    const refused = `The resource "${uri}" cannot be watched for changes; read it again later instead.`;
    await expect(hub.acquire({}, uri)).rejects.toThrow(refused);
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 1 });
    // A second try while the first look is still stuck: no second look, which would hold a
    // second thread on a dead mount.
    await expect(hub.acquire({}, uri)).rejects.toThrow(refused);
    expect(spy.looked).toEqual([path]);
    expect(spy.held).toHaveLength(1);

    // The file system answers at last: nobody is waiting, so no watch is set up.
    for (const go of spy.held.splice(0)) go();
    await sleep(100);
    expect(spy.watched).toEqual([]);
    expect(osWatches()).toBe(before);
  });

  it('takes a deadline above 0 and within what a timer can wait', () => {
    for (const bad of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() => watchFile(dir, undefined, { startTimeoutMs: bad })).toThrow(RangeError);
    }
    expect(() => watchFile(dir, undefined, { startTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});
