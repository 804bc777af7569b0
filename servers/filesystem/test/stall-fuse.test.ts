/**
 * A real stalled FUSE mount never stalls the server. The mount (`stall-fuse-kit.ts`) lets every
 * request wait in the kernel as a dead network mount does, each one holding the libuv thread that
 * sent it. The server must find the mount slow from the mount table alone, end each call on it
 * with one sentence, keep enough threads free that a call on the local root still answers while
 * more calls are stuck than libuv has threads, and read the mount again once it answers.
 *
 * Skipped, saying why, where the machine cannot mount it (see the kit).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet, StallGuard, slowPaths } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, textOf } from '@mcpkit/core/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { type Fuse, mountStallFs, mountType, teardown } from './stall-fuse-kit.js';

const ERAS = ['legacy', 'modern'] as const;
const TIMEOUT_MS = 500;
const STALLED = new RegExp(
  `^"mnt[^"]*" (did not answer|could not be reached) within ${String(TIMEOUT_MS / 1000).replace('.', '\\.')} s: `,
);
/**
 * How long the daemon holds a request before it fails it. It bounds the test if the local call
 * never gets a thread (it then answers only once the daemon lets go), so it is well short of the
 * test timeout, and far longer than any stall here lasts, even on a loaded machine.
 */
const DAEMON_GIVE_UP_S = 10;

/** The order things happen in, and a way to wait for what has to come. */
function timeline() {
  const events: string[] = [];
  let wake = () => {};
  return {
    events,
    note(event: string) {
      events.push(event);
      wake();
    },
    async when(ready: (events: string[]) => boolean) {
      while (!ready(events)) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}
const count = (events: string[], event: string) => events.filter((e) => e === event).length;

const mounted = await mountStallFs(DAEMON_GIVE_UP_S);
const skip = typeof mounted === 'string' ? mounted : false;
if (skip) console.log(`stall-fuse: skipped, ${skip}.`);

describe.skipIf(skip)('a real stalled FUSE mount', () => {
  const fuse = mounted as Fuse;
  let apps: App[] = [];
  afterEach(async () => {
    // A failed test must not leave the mount stalled for the next one.
    rmSync(fuse.control, { force: true });
    fuse.onLine = () => {};
    for (const app of apps) await app.close();
    apps = [];
  });
  afterAll(() => teardown(fuse));

  // One guard for every app, as a server process has one: a body stuck in an earlier test that is
  // still ending keeps its slot, so no test sees more requests held than the guard's slots.
  const stallGuard = new StallGuard({ timeoutMs: TIMEOUT_MS, slots: 2 });
  const serve = async () => {
    const roots = await RootSet.create([fuse.local, fuse.mnt]);
    const app = createFilesystemApp({ roots, stallGuard });
    apps.push(app);
    return app;
  };

  it('is found slow from the mount table alone, and the local root is not', () => {
    expect(mountType(fuse.mnt)).toBe('fuse.stallfs');
    expect(slowPaths.isSlow(fuse.mnt)).toBe(true);
    expect(slowPaths.isSlow(join(fuse.mnt, 'notes.txt'))).toBe(true);
    expect(slowPaths.isSlow(fuse.local)).toBe(false);
  });

  describe.each(ERAS)('%s', (era) => {
    it('answers the local root while more calls are stuck than libuv has threads, then reads the mount again', async () => {
      // Nothing marked the mount slow by hand: the table must say so, or a synchronous call on it
      // would stop this whole process.
      expect(slowPaths.isSlow(fuse.mnt)).toBe(true);
      const session = await connect(await serve(), { era });
      const notes = join(fuse.mnt, 'notes.txt');
      // A busy machine may be slow to answer even when nothing stalls: a few tries.
      const readNotes = async () => {
        let answer = await session.callTool('read_text_file', { path: notes });
        for (let i = 0; i < 20 && answer.isError && STALLED.test(textOf(answer)); i++) {
          answer = await session.callTool('read_text_file', { path: notes });
        }
        return textOf(answer);
      };
      expect(await readNotes()).toContain('on the fuse mount');

      const { events, note, when } = timeline();
      // A release is the kernel's own, after a close has returned: no thread waits for it.
      fuse.onLine = (line) =>
        note(/^held release/.test(line) ? 'held in background' : (/^(held|gave up) /.exec(line)?.[1] ?? ''));
      writeFileSync(fuse.control, '');
      // More calls on the mount than libuv has threads (four unless UV_THREADPOOL_SIZE says more).
      const stuck = [
        session.callTool('read_text_file', { path: notes }),
        session.callTool('get_file_info', { path: notes }),
        session.callTool('list_directory_with_sizes', { path: fuse.mnt }),
        session.callTool('search_files', { path: fuse.mnt, pattern: '*.txt' }),
        session.callTool('directory_tree', { path: fuse.mnt }),
        session.callTool('read_multiple_files', { paths: [notes] }),
      ].map((call, i) => call.finally(() => note(`fuse ${i}`)));
      // The guard's two slots are taken by requests really waiting in the kernel.
      await when((e) => count(e, 'held') >= 2);

      // Sizes need an lstat per entry, and with a FUSE mount present even the local realpath goes
      // through the thread pool: this call answers only if the stuck requests left it threads.
      // Had they taken them all, it would wait until the daemon gives up and lets them go.
      const local = session.callTool('list_directory_with_sizes', { path: fuse.local });
      const settle = () => note('local');
      local.then(settle, settle);
      await when((e) => e.includes('local') || e.includes('gave up'));
      const beforeLocal = events.slice(0, events.indexOf('local'));
      expect(events, 'the local call answers while the mount holds its requests').toContain('local');
      expect(count(beforeLocal, 'held')).toBeGreaterThanOrEqual(2);
      expect(beforeLocal).not.toContain('gave up');
      const listing = await local;
      expect(listing.isError).toBeFalsy();
      for (const name of ['a.txt', 'b.txt', 'c.txt']) expect(textOf(listing)).toContain(name);

      for (const answer of await Promise.all(stuck)) {
        const text = textOf(answer);
        expect(answer.isError).toBe(true);
        expect(text).toMatch(STALLED);
        expect(text).not.toContain(fuse.base);
      }

      // Each gave up with its sentence while the mount still held their requests, and no more of
      // them reached the mount, each holding a thread, than the guard has slots.
      expect(events).not.toContain('gave up');
      expect(count(events, 'held')).toBe(2);

      // The mount answers again: the stuck calls end, give their slots back, and reads work.
      rmSync(fuse.control);
      expect(await readNotes()).toContain('on the fuse mount');
      await session.close();
    });
  });
});
