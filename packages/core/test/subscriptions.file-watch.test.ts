import { mkdir, mkdtemp, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileWatchProvider } from '../src/subscriptions/file-watch.js';
import { SubscriptionHub } from '../src/subscriptions/hub.js';
import type { NotificationTarget } from '../src/subscriptions/index.js';

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-subs-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hubs: SubscriptionHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

/** A hub watching `file:` URIs under the temp directory, with a recording unowned target. */
function setup(debounceMs = 50) {
  const hub = new SubscriptionHub({ debounceMs });
  hubs.push(hub);
  hub.addWatchProvider(
    fileWatchProvider({
      toPath: (uri) => {
        if (!uri.startsWith('file:')) return undefined;
        const path = fileURLToPath(uri);
        return path.startsWith(dir) ? path : undefined;
      },
    }),
  );
  const updates: string[] = [];
  const target: NotificationTarget = {
    resourceUpdated: (uri) => {
      updates.push(uri);
    },
    listChanged() {},
  };
  hub.addTarget(target);
  return { hub, updates };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fsWatchHandles(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'FSEventWrap').length;
}

let counter = 0;
async function freshFile(): Promise<{ path: string; uri: string }> {
  const path = join(dir, `note-${++counter}.md`);
  await writeFile(path, 'v0');
  return { path, uri: pathToFileURL(path).href };
}

describe('fileWatchProvider', () => {
  it('folds a burst of 20 external writes into ONE update, and stops on the last release', async () => {
    // A window wide enough that a loaded 2-core machine still delivers the whole burst inside it.
    const { hub, updates } = setup(400);
    const { path, uri } = await freshFile();
    const handlesBefore = fsWatchHandles();
    const owner = {};
    await hub.acquire(owner, uri);
    expect(hub.stats.watches).toBe(1);
    expect(fsWatchHandles()).toBeGreaterThan(handlesBefore);

    // Back-to-back writes: a few milliseconds in all, well inside the debounce window.
    for (let i = 1; i <= 20; i++) await writeFile(path, `v${i}`);
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 5_000, interval: 10 });
    await sleep(600);
    expect(updates).toEqual([uri]);

    await hub.release(owner, uri);
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 1 });
    // The OS handle goes away (the process could exit), and later writes go unnoticed.
    await vi.waitFor(() => expect(fsWatchHandles()).toBe(handlesBefore));
    await writeFile(path, 'after release');
    await sleep(200);
    expect(updates).toEqual([uri]);
  });

  it('stops watching when the last owning session ends', async () => {
    const { hub, updates } = setup();
    const { path, uri } = await freshFile();
    const first = {};
    const second = {};
    await hub.acquire(first, uri);
    await hub.acquire(second, uri);
    await hub.releaseOwner(first);
    expect(hub.stats.watches).toBe(1);
    await writeFile(path, 'still watched');
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 1_500, interval: 10 });

    await hub.releaseOwner(second);
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 1 });
    await writeFile(path, 'nobody listens');
    await sleep(200);
    expect(updates).toEqual([uri]);
  });

  it('reports a deleted file', async () => {
    const { hub, updates } = setup();
    const { path, uri } = await freshFile();
    await hub.acquire({}, uri);
    await unlink(path);
    // atomic mode holds an unlink back 100 ms in case the file is recreated.
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 1_500, interval: 10 });
  });

  it('watches a directory listing at depth 0', async () => {
    const { hub, updates } = setup();
    const folder = join(dir, `folder-${++counter}`);
    await mkdir(join(folder, 'nested'), { recursive: true });
    const uri = pathToFileURL(folder).href;
    await hub.acquire({}, uri);

    await writeFile(join(folder, 'new.md'), 'hello');
    await vi.waitFor(() => expect(updates).toEqual([uri]), { timeout: 1_500, interval: 10 });

    // Changes two levels down are outside a depth-0 watch.
    await writeFile(join(folder, 'nested', 'deep.md'), 'deep');
    await sleep(200);
    expect(updates).toEqual([uri]);
  });

  it('leaves URIs its toPath rejects to other providers (or to none)', async () => {
    const { hub } = setup();
    const handlesBefore = fsWatchHandles();
    await hub.acquire({}, 'note://elsewhere');
    expect(hub.stats.watches).toBe(1);
    expect(fsWatchHandles()).toBe(handlesBefore);
  });

  it('closes its watchers when the hub closes', async () => {
    const { hub, updates } = setup();
    const { path, uri } = await freshFile();
    const handlesBefore = fsWatchHandles();
    await hub.acquire({}, uri);
    await hub.close();
    await hub.close();
    await vi.waitFor(() => expect(fsWatchHandles()).toBe(handlesBefore));
    await writeFile(path, 'closed');
    await sleep(150);
    expect(updates).toEqual([]);
  });
});
