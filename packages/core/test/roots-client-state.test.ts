import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientRootsState } from '../src/roots/client-roots.js';
import { RootSet } from '../src/roots/root-set.js';

let tmp: string;
let allowed: string;
let ceiling: RootSet;
let app: string;
let lib: string;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcpkit-client-roots-')));
  allowed = path.join(tmp, 'allowed');
  app = path.join(allowed, 'app');
  lib = path.join(allowed, 'lib');
  await mkdir(app, { recursive: true });
  await mkdir(lib);
  ceiling = await RootSet.create([allowed]);
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(tmp, { recursive: true, force: true });
});

const paths = (set: RootSet): string[] => set.roots.map((r) => r.path);

describe('ClientRootsState', () => {
  it('waits for the first answer', async () => {
    const state = new ClientRootsState(ceiling);
    const ticket = state.beginRefresh();
    let settled = false;
    const pending = state.effective().then((set) => {
      settled = true;
      return set;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    await state.applyAnswer(ticket, [app]);
    expect(paths(await pending)).toEqual([app]);
  });

  it('never lets a stale answer overwrite a newer one', async () => {
    const state = new ClientRootsState(ceiling);
    const first = state.beginRefresh();
    const second = state.beginRefresh();
    expect(second).toBeGreaterThan(first);
    await state.applyAnswer(second, [lib]);
    await state.applyAnswer(first, [app]);
    expect(paths(await state.effective())).toEqual([lib]);
  });

  it('orders by ticket even when the older answer resolves last concurrently', async () => {
    const state = new ClientRootsState(ceiling);
    const first = state.beginRefresh();
    const second = state.beginRefresh();
    const late = state.applyAnswer(first, [app, path.join(allowed, 'missing')]);
    await Promise.all([state.applyAnswer(second, [lib]), late]);
    expect(paths(await state.effective())).toEqual([lib]);
  });

  it('applies a newer answer over an older one', async () => {
    const state = new ClientRootsState(ceiling);
    await state.applyAnswer(state.beginRefresh(), [app]);
    await state.applyAnswer(state.beginRefresh(), []);
    expect((await state.effective()).isEmpty).toBe(true);
  });

  it('rejects when aborted while waiting, and immediately when already aborted', async () => {
    const state = new ClientRootsState(ceiling);
    state.beginRefresh();
    const controller = new AbortController();
    const pending = state.effective(controller.signal);
    controller.abort(new Error('cancelled by client'));
    await expect(pending).rejects.toThrow('cancelled by client');
    await expect(state.effective(AbortSignal.abort(new Error('early')))).rejects.toThrow('early');
    expect(state.ready).toBe(false);
  });

  it('falls back to the ceiling after the timeout, and a later answer still narrows', async () => {
    vi.useFakeTimers();
    const state = new ClientRootsState(ceiling, { timeoutMs: 1000 });
    const ticket = state.beginRefresh();
    const pending = state.effective();
    await vi.advanceTimersByTimeAsync(1000);
    expect(paths(await pending)).toEqual([allowed]);
    vi.useRealTimers();
    await state.applyAnswer(ticket, [app]);
    expect(paths(await state.effective())).toEqual([app]);
  });

  it('falls back to the ceiling on the first failure but keeps a good answer on later failures', async () => {
    const state = new ClientRootsState(ceiling);
    const pending = state.effective();
    state.failRefresh(state.beginRefresh(), new Error('timeout'));
    expect(paths(await pending)).toEqual([allowed]);
    expect(state.lastError).toBeInstanceOf(Error);
    await state.applyAnswer(state.beginRefresh(), [app]);
    state.failRefresh(state.beginRefresh(), new Error('again'));
    expect(paths(await state.effective())).toEqual([app]);
  });

  it('uses the ceiling at once without a roots capability', async () => {
    const state = new ClientRootsState(ceiling);
    state.useCeiling();
    expect(state.ready).toBe(true);
    expect(await state.effective()).toBe(ceiling);
  });

  it('notifies listeners when the effective set changes, and stops after unsubscribe', async () => {
    const state = new ClientRootsState(ceiling);
    const seen: string[][] = [];
    const off = state.onChange((set) => seen.push(paths(set)));
    state.onChange(() => {
      throw new Error('a broken listener');
    });
    await state.applyAnswer(state.beginRefresh(), [app]);
    await state.applyAnswer(state.beginRefresh(), [app]); // same set: no event
    await state.applyAnswer(state.beginRefresh(), [lib]);
    off();
    await state.applyAnswer(state.beginRefresh(), [app]);
    expect(seen).toEqual([[app], [lib]]);
  });

  it('refuses tickets it never issued', async () => {
    const state = new ClientRootsState(ceiling);
    await expect(state.applyAnswer(1, [app])).rejects.toThrow(RangeError);
    expect(() => state.failRefresh(7, new Error('x'))).toThrow(RangeError);
  });
});
