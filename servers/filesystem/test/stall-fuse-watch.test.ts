/**
 * A subscription to a local directory with a stalled mount just inside it. The directory's watch
 * must start without looking at its entries: one look at the mount point would wait on the dead
 * mount, and the subscribe with it. So the subscribe answers, the mount sees no request at all,
 * and a change to a local file beside the mount is reported, in both eras. The same holds for a
 * file that does not exist yet, whose watch is on that directory.
 *
 * Skipped, saying why, where the machine cannot mount the stalling file system (see the kit).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RootSet, StallGuard, slowPaths } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect } from '@mcpkit/core/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { type Fuse, mountStallFs, teardown } from './stall-fuse-kit.js';

const ERAS = ['legacy', 'modern'] as const;
type Session = Awaited<ReturnType<typeof connect>>;
/**
 * Longer than the test timeout: a watch that waited on the mount would wait past the test's end,
 * instead of starting late once the daemon gives up and passing unnoticed.
 */
const DAEMON_GIVE_UP_S = 60;

const mounted = await mountStallFs(DAEMON_GIVE_UP_S);
const skip = typeof mounted === 'string' ? mounted : false;
if (skip) console.log(`stall-fuse-watch: skipped, ${skip}.`);

/** Subscribes as the era does; resolves once the server has answered. Returns the unsubscribe. */
async function subscribe(session: Session, era: (typeof ERAS)[number], uri: string) {
  if (era === 'legacy') {
    await session.client.subscribeResource({ uri });
    return async () => void (await session.client.unsubscribeResource({ uri }));
  }
  const sub = await session.client.listen({ resourceSubscriptions: [uri] });
  return () => sub.close();
}

const osWatches = () => process.getActiveResourcesInfo().filter((name) => name === 'FSEventWrap').length;

/**
 * Subscribes as the era does, waits until the server runs a new OS watch (a 2026-era listen is
 * answered before its watch starts, and a file written before that would be found already there,
 * not created), writes `path`, and waits for `uri` to be reported. Returns the unsubscribe.
 */
async function subscribeAndChange(session: Session, era: (typeof ERAS)[number], uri: string, path: string) {
  const before = osWatches();
  const unsubscribe = await subscribe(session, era, uri);
  await expect.poll(osWatches, { timeout: 15_000 }).toBeGreaterThan(before);
  writeFileSync(path, 'written beside the mount\n');
  await session.notifications.waitFor(
    'notifications/resources/updated',
    (n) => n.params?.uri === uri,
    15_000,
  );
  return unsubscribe;
}

/**
 * The mount really stalls: a look at its mount point is held, so the test's "nothing reached it"
 * means nothing looked. Lets it go afterwards.
 */
async function expectStalled(fuse: Fuse): Promise<void> {
  const heldNow = new Promise<void>((resolve) => {
    fuse.onLine = (line) => {
      if (line.startsWith('held ')) resolve();
    };
  });
  const look = lstat(fuse.mnt);
  await heldNow;
  rmSync(fuse.control);
  await look;
}

describe.skipIf(skip)('a subscription beside a real stalled FUSE mount', () => {
  const fuse = mounted as Fuse;
  let apps: App[] = [];
  /** Every request the mount held: none may reach it. */
  let held: string[] = [];
  afterEach(async () => {
    // A failed test must not leave the mount stalled for the next one.
    rmSync(fuse.control, { force: true });
    fuse.onLine = () => {};
    for (const app of apps) await app.close();
    apps = [];
  });
  afterAll(() => teardown(fuse));

  const stallGuard = new StallGuard({ timeoutMs: 500, slots: 2 });
  /** The server, its one root the local directory the mount point is in; the mount stalled. */
  const serveStalled = async () => {
    const roots = await RootSet.create([fuse.base]);
    const app = createFilesystemApp({ roots, stallGuard });
    apps.push(app);
    expect(slowPaths.isSlow(fuse.mnt)).toBe(true);
    expect(slowPaths.isSlow(fuse.base)).toBe(false);
    held = [];
    fuse.onLine = (line) => {
      if (line.startsWith('held ')) held.push(line);
    };
    writeFileSync(fuse.control, '');
    return app;
  };

  describe.each(ERAS)('%s', (era) => {
    it('answers a subscription to the directory and reports a local change beside the mount', async () => {
      const session = await connect(await serveStalled(), { era });
      const uri = pathToFileURL(fuse.base).href;
      const unsubscribe = await subscribeAndChange(session, era, uri, join(fuse.base, `beside-${era}.txt`));
      expect(held, 'nothing reached the stalled mount').toEqual([]);
      await expectStalled(fuse);
      await unsubscribe();
      await session.close();
    });

    it('answers a subscription to a file not there yet and reports it once written', async () => {
      const session = await connect(await serveStalled(), { era });
      const path = join(fuse.base, `later-${era}.txt`);
      const uri = pathToFileURL(path).href;
      const unsubscribe = await subscribeAndChange(session, era, uri, path);
      expect(held, 'nothing reached the stalled mount').toEqual([]);
      await expectStalled(fuse);
      await unsubscribe();
      await session.close();
    });
  });
});
