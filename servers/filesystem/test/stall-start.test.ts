/**
 * A mount that is stalled when the server starts, or when a client shares a root on it, never
 * stalls the server. Through the command line (`cli.create`), with the injected slow layer of
 * `stall-layer.ts`: a `--slow-path` or a directory argument on the stalled mount is checked under
 * the stall deadline and served as typed, with a warning, so the server starts and answers (the
 * stalled root with the stall sentence, the others as usual); a client root on it is left out with
 * a warning instead of holding every call of the session, and is picked up once the mount answers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@mcpkit/core/logging';
import { slowPaths } from '@mcpkit/core/roots';
import { parseCommandLine } from '@mcpkit/core/runner';
import type { App } from '@mcpkit/core/server';
import { connect, textOf } from '@mcpkit/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../src/cli.js';
import { world } from './harness.js';
import { type newLayer, release, stall, stalling, watchingSync } from './stall-layer.js';

const layer = vi.hoisted(() => ({}) as ReturnType<typeof newLayer>);
vi.mock('node:fs/promises', async (original) => {
  const { newLayer: make, stalling: wrap } = await import('./stall-layer.js');
  Object.assign(layer, make());
  return wrap(await original<Record<string, unknown>>(), layer);
});
vi.mock('node:fs', async (original) => {
  const { watchingSync: wrap } = await import('./stall-layer.js');
  return wrap(await original<Record<string, unknown>>(), layer);
});
void stalling;
void watchingSync;

const ERAS = ['legacy', 'modern'] as const;
const STALL = ['--stall-timeout', '0.3'];

/** A logger that keeps what it is told. */
function keeping(lines: string[]): Logger {
  const keep = (message: string) => void lines.push(message);
  return { level: 'debug', debug: keep, info: keep, warn: keep, error: keep };
}

describe('a mount stalled at start-up or under a client root', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let mount: string;
  let apps: App[] = [];
  const lines: string[] = [];
  beforeAll(async () => {
    w = await world();
    mount = join(w.base, 'mount');
    await mkdir(join(mount, 'docs'), { recursive: true });
    await writeFile(join(mount, 'notes.txt'), 'on the mount\n');
    await writeFile(join(mount, 'docs', 'guide.md'), 'a guide\n');
    await writeFile(join(w.allowed, 'local.txt'), 'on the local disk\n');
    layer.dir = mount;
  });
  afterEach(async () => {
    release(layer);
    for (const app of apps) await app.close();
    apps = [];
    lines.length = 0;
    slowPaths.clearAdded();
  });
  afterAll(async () => {
    await w.cleanup();
  });

  const start = async (argv: string[]) => {
    const app = await cli.create(parseCommandLine(argv, cli.options, {}, cli.bin), keeping(lines));
    apps.push(app);
    return app;
  };
  const warnings = () => lines.filter((line) => line.includes('did not answer'));

  it('starts with a --slow-path on a stalled mount, treating it as slow as typed', async () => {
    stall(layer);
    await start(['--slow-path', mount, ...STALL, w.allowed]);
    expect(warnings()).toEqual([
      `--slow-path ${JSON.stringify(mount)} did not answer within 0.3 s, so that mount may be stalled; it is treated as slow as typed.`,
    ]);
    expect(slowPaths.isSlow(join(mount, 'notes.txt'))).toBe(true);
    expect(layer.syncCalls).toEqual([]);
  });

  describe.each(ERAS)('%s', (era) => {
    it('starts with a directory on a stalled mount and answers: that root with a sentence, the other as usual', async () => {
      // Slow as a network file system in the mount table would make it.
      slowPaths.add(mount);
      stall(layer);
      const app = await start([...STALL, w.allowed, mount]);
      expect(warnings()).toEqual([
        `Allowed directory argument 2 (${JSON.stringify(mount)}) did not answer within 0.3 s, so its network or FUSE mount may be stalled; it is served as given, and calls on it work once the mount answers.`,
      ]);
      const session = await connect(app, { era });
      const local = await session.callTool('read_text_file', { path: join(w.allowed, 'local.txt') });
      expect(textOf(local)).toContain('on the local disk');
      const stalled = await session.callTool('read_text_file', { path: join(mount, 'notes.txt') });
      expect(stalled.isError).toBe(true);
      expect(textOf(stalled)).toMatch(/^"mount\/notes\.txt" did not answer within 0\.3 s: .*\.$/);
      expect(textOf(stalled)).not.toContain(w.base);

      // The mount answers again: so does the root, with no restart.
      release(layer);
      const back = await session.callTool('read_text_file', { path: join(mount, 'notes.txt') });
      expect(textOf(back)).toContain('on the mount');
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });

    it('leaves a client root on a stalled mount out, with a warning, and the session answers', async () => {
      slowPaths.add(mount);
      const app = await start([...STALL, w.allowed, mount]);
      const docs = join(mount, 'docs');
      stall(layer);
      const session = await connect(app, { era, roots: [docs, w.allowed] });
      const local = await session.callTool('read_text_file', { path: join(w.allowed, 'local.txt') });
      expect(textOf(local)).toContain('on the local disk');
      // Left out, so outside what this client allows: refused at once, not waited on.
      const left = await session.callTool('read_text_file', { path: join(docs, 'guide.md') });
      expect(left.isError).toBe(true);
      expect(textOf(left)).not.toMatch(/did not answer/);
      const again = await session.callTool('get_file_info', { path: join(w.allowed, 'local.txt') });
      expect(again.isError).toBeFalsy();
      expect(warnings()).toEqual([
        `Client root ${JSON.stringify(docs)} did not answer within 0.3 s, so its network or FUSE mount may be stalled; it is left out until the client's roots change.`,
      ]);

      // Once the mount has answered, the next roots answer has the root again.
      release(layer);
      await vi.waitFor(() => expect(layer.inFlight).toBe(0));
      await vi.waitFor(async () => {
        if (era === 'legacy') await session.rootsChanged();
        const back = await session.callTool('read_text_file', { path: join(docs, 'guide.md') });
        expect(textOf(back)).toContain('a guide');
      });
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });
  });
});
