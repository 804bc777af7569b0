/**
 * RootSet on a stalled mount: with a stall guard, a configured directory whose realpath does not
 * answer is served as given and a client root that does not answer is left out, each with one
 * warning, instead of hanging the start or every call of a session. The stall is an injected
 * `realpath`/`stat` that waits, for paths under one directory, until the test lets it go; a hang
 * is left to the test's timeout.
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientRootsState } from '../src/roots/client-roots.js';
import { RootSet } from '../src/roots/root-set.js';
import { SlowPaths } from '../src/roots/slow-paths.js';
import { StallGuard } from '../src/roots/stall-guard.js';

/** Paths under `dir` wait while `stalled`; `calls` counts every such call, `waiting` the held ones. */
const gate = vi.hoisted(() => ({
  dir: '\0none',
  stalled: false,
  calls: 0,
  waiting: [] as (() => void)[],
}));

vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  const held =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const target = String(args[0]);
      if (target === gate.dir || target.startsWith(`${gate.dir}/`)) {
        gate.calls += 1;
        if (gate.stalled) await new Promise<void>((go) => gate.waiting.push(go));
      }
      return fn(...args);
    };
  const wrapped = { ...real, realpath: held(real.realpath), stat: held(real.stat) };
  return { ...wrapped, default: wrapped };
});

const TIMEOUT_MS = 100;
/** A hang fails here, well before the file's own timeout. */
const HANG_MS = 5_000;

let tmp: string;
let local: string;
let mount: string;
let paths: SlowPaths;
let guard: StallGuard;
let warnings: string[];

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcpkit-roots-stall-')));
  local = path.join(tmp, 'local');
  mount = path.join(tmp, 'mount');
  await mkdir(path.join(local, 'app'), { recursive: true });
  await mkdir(path.join(mount, 'share'), { recursive: true });
  // Windows reads no mount table: on any machine only the added directory is slow.
  paths = new SlowPaths('win32');
  await paths.ready();
  paths.add(mount);
  guard = new StallGuard({ timeoutMs: TIMEOUT_MS, slots: 2, paths });
  warnings = [];
  Object.assign(gate, { dir: mount, stalled: false, calls: 0 });
});

afterEach(async () => {
  await letGo();
  await rm(tmp, { recursive: true, force: true });
});

/** The mount answers again: every held call goes on, and has returned when this resolves. */
async function letGo(): Promise<void> {
  gate.stalled = false;
  for (const go of gate.waiting.splice(0)) go();
  await new Promise((resolve) => setTimeout(resolve, 10));
}

const rootPaths = (set: RootSet): string[] => set.roots.map((root) => root.path);
const warn = (line: string) => warnings.push(line);

describe('RootSet.create with a stall guard', () => {
  it(
    'serves a directory on a stalled mount as given, with one warning, and the others as before',
    async () => {
      gate.stalled = true;
      const set = await RootSet.create([local, mount], { stallGuard: guard, warn });
      expect(rootPaths(set)).toEqual([local, mount]);
      expect(warnings).toEqual([
        `Allowed directory argument 2 (${JSON.stringify(mount)}) did not answer within 0.1 s, so its network or FUSE mount may be stalled; it is served as given, and calls on it work once the mount answers.`,
      ]);
      // Once the mount answers, paths on it resolve as on any other root.
      await letGo();
      expect((await set.resolve(path.join(mount, 'share'))).display).toBe('mount/share');
    },
    HANG_MS,
  );

  it(
    'does not ask again below a directory that has not answered yet',
    async () => {
      gate.stalled = true;
      expect(await RootSet.probe(mount, guard)).toEqual({ not: 'stalled' });
      const calls = gate.calls;
      const set = await RootSet.create([path.join(mount, 'share')], { stallGuard: guard, warn });
      expect(rootPaths(set)).toEqual([path.join(mount, 'share')]);
      expect(gate.calls).toBe(calls);
      expect(warnings).toHaveLength(1);
      // The first call has returned: the mount is asked again, and answers.
      await letGo();
      expect(await RootSet.probe(path.join(mount, 'share'), guard)).toEqual({
        real: path.join(mount, 'share'),
      });
    },
    HANG_MS,
  );

  it('still fails closed on a missing directory or a file', async () => {
    const missing = path.join(mount, 'nope');
    await expect(RootSet.create([missing], { stallGuard: guard, warn })).rejects.toThrow(
      /^Allowed directory argument 1 .* does not exist or cannot be accessed\.$/,
    );
    expect(warnings).toEqual([]);
  });
});

describe('RootSet.narrow with a stall guard', () => {
  it(
    'leaves a client root on a stalled mount out, with one warning, and keeps the others',
    async () => {
      const ceiling = await RootSet.create([local, mount], { stallGuard: guard, warn });
      gate.stalled = true;
      const share = path.join(mount, 'share');
      const app = path.join(local, 'app');
      const narrowed = await ceiling.narrow([share, app]);
      expect(rootPaths(narrowed)).toEqual([app]);
      expect(warnings).toEqual([
        `Client root ${JSON.stringify(share)} did not answer within 0.1 s, so its network or FUSE mount may be stalled; it is left out until the client's roots change.`,
      ]);

      // The next answer (in the 2026 era, the next call) neither waits nor holds another thread.
      const calls = gate.calls;
      expect(rootPaths(await ceiling.narrow([share, app]))).toEqual([app]);
      expect(gate.calls).toBe(calls);
      expect(warnings).toHaveLength(1);

      // Once the mount answers, the next roots change picks the root up.
      await letGo();
      expect(rootPaths(await ceiling.narrow([share, app]))).toEqual([share, app]);
    },
    HANG_MS,
  );

  it(
    'holds no more threads on the stalled mount than the guard has slots',
    async () => {
      const ceiling = await RootSet.create([tmp], { stallGuard: guard, warn });
      for (const name of ['a', 'b', 'c', 'd']) await mkdir(path.join(mount, name));
      gate.stalled = true;
      const roots = ['a', 'b', 'c', 'd'].map((name) => path.join(mount, name));
      expect((await ceiling.narrow(roots)).isEmpty).toBe(true);
      expect(gate.waiting.length).toBeLessThanOrEqual(2);
      expect(warnings).toHaveLength(4);
    },
    HANG_MS,
  );
});

describe('ClientRootsState over a ceiling with a stall guard', () => {
  it(
    'waits for an answer being narrowed rather than widen to the ceiling, and ends',
    async () => {
      const ceiling = await RootSet.create([local, mount], { stallGuard: guard, warn });
      // The wait for the first answer is shorter than the stall deadline.
      const state = new ClientRootsState(ceiling, { timeoutMs: 10 });
      gate.stalled = true;
      const app = path.join(local, 'app');
      const applied = state.applyAnswer(state.beginRefresh(), [path.join(mount, 'share'), app]);
      expect(rootPaths(await state.effective())).toEqual([app]);
      await applied;
      expect(warnings).toHaveLength(1);
    },
    HANG_MS,
  );

  it(
    'falls back to the ceiling after its timeout without a stall guard, as before',
    async () => {
      const ceiling = await RootSet.create([local, mount]);
      const state = new ClientRootsState(ceiling, { timeoutMs: 10 });
      gate.stalled = true;
      void state.applyAnswer(state.beginRefresh(), [path.join(mount, 'share')]);
      expect(rootPaths(await state.effective())).toEqual([local, mount]);
    },
    HANG_MS,
  );
});

describe('RootSet.configuredPath', () => {
  it('expands ~ as for directory arguments, and refuses empty values and control characters', () => {
    expect(RootSet.configuredPath('~', '/home/me')).toBe('/home/me');
    expect(RootSet.configuredPath('~/nas/x', '/home/me')).toBe('/home/me/nas/x');
    expect(RootSet.configuredPath('~other', '/home/me')).toBe(path.resolve('~other'));
    expect(RootSet.configuredPath('mnt/../nas', '/home/me')).toBe(path.resolve('nas'));
    expect(RootSet.configuredPath('', '/home/me')).toBeUndefined();
    expect(RootSet.configuredPath('/mnt/a\nb', '/home/me')).toBeUndefined();
  });
});
