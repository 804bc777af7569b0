/**
 * A file system layer for the tree tests (count, delete, move across file systems), used through
 * `vi.mock('node:fs')` and `vi.mock('node:fs/promises')` in the test file like `stall-layer.ts`,
 * with what tree walks need on top of it. The test file's factories hand over to this one, which
 * is loaded from inside them and so imports no file system module at run time:
 *
 * ```ts
 * const layer = vi.hoisted(() => ({}) as TreeLayer);
 * vi.mock('node:fs/promises', async (original) =>
 *   (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
 * );
 * vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));
 * ```
 *
 * Walks name entries through descriptors (`/proc/self/fd/N/name`), so every path is first
 * resolved to the real path it stands for, as the kernel would: a call through a descriptor into
 * a stalled mount waits like any other.
 *
 * - **Stall:** calls under `dir` wait while `stalled`, all of them or only those named in `ops`.
 * - **Another device:** `lstat` and `stat` of `mounts`, and of anything below them, answer with a
 *   different `dev`, as a mount point and what is on it would.
 * - **Another file system:** `rename` of `crossing` fails with EXDEV, so a move copies.
 * - **Order:** a listing gives the names in `last` after all others, so a test knows what goes first.
 * - **Synchronous calls** that touch a file under `dir` are recorded in `syncCalls`.
 * - **A race:** `before` runs ahead of every asynchronous call, with its name and real path.
 */
import type * as Fs from 'node:fs';
import { vi } from 'vitest';

export interface TreeLayer {
  dir: string;
  stalled: boolean;
  /** Only these calls stall (`readdir`, `lstat`…); every call when empty. */
  ops: Set<string>;
  mounts: Set<string>;
  crossing: Set<string>;
  last: Set<string>;
  before: ((name: string, real: string) => void) | undefined;
  syncCalls: string[];
  waiting: (() => void)[];
  /** Resolved when a call starts waiting. */
  held: Promise<void>;
  heldNow: () => void;
}

function newTreeLayer(): TreeLayer {
  return {
    dir: '\0none',
    stalled: false,
    ops: new Set(),
    mounts: new Set(),
    crossing: new Set(),
    last: new Set(),
    before: undefined,
    syncCalls: [],
    waiting: [],
    held: Promise.resolve(),
    heldNow: () => {},
  };
}

/** Stalls calls under `layer.dir` from now on (only `ops`, when given). */
export function stallTree(layer: TreeLayer, ops: string[] = []): void {
  layer.ops = new Set(ops);
  layer.stalled = true;
  layer.held = new Promise((resolve) => {
    layer.heldNow = resolve;
  });
}

/** The mount answers again: every waiting call goes on. */
export function releaseTree(layer: TreeLayer): void {
  layer.stalled = false;
  for (const go of layer.waiting.splice(0)) go();
}

/** Back to a plain pass-through layer. */
export function resetTree(layer: TreeLayer): void {
  releaseTree(layer);
  layer.mounts.clear();
  layer.crossing.clear();
  layer.last.clear();
  layer.before = undefined;
  layer.syncCalls.length = 0;
}

type Fn = (...args: unknown[]) => unknown;
const FD_PATH = /^\/proc\/self\/fd\/(\d+)(\/.*)?$/;

/** The real path a path argument stands for; `bare` tells a descriptor's own link (no file I/O to read). */
function resolver(fs: typeof Fs) {
  return (path: unknown): { real: string; bare: boolean } => {
    const text = path instanceof URL ? path.pathname : typeof path === 'string' ? path : '';
    const match = FD_PATH.exec(text);
    if (!match) return { real: text, bare: false };
    try {
      return { real: fs.readlinkSync(`/proc/self/fd/${match[1]}`) + (match[2] ?? ''), bare: !match[2] };
    } catch {
      return { real: text, bare: false };
    }
  };
}

function under(layer: TreeLayer, real: string): boolean {
  return real === layer.dir || real.startsWith(`${layer.dir}/`);
}

async function gate(layer: TreeLayer, name: string, real: string): Promise<void> {
  if (!layer.stalled || !under(layer, real) || (layer.ops.size > 0 && !layer.ops.has(name))) return;
  layer.heldNow();
  await new Promise<void>((go) => layer.waiting.push(go));
}

/** On a made-up mount: a mount point of `mounts`, or anything below one (all on the mounted device). */
function onMount(layer: TreeLayer, real: string): boolean {
  for (const mount of layer.mounts) if (real === mount || real.startsWith(`${mount}/`)) return true;
  return false;
}

function otherDevice<T extends Fs.Stats>(stats: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, { dev: stats.dev + 1 });
}

function lastOf(layer: TreeLayer, listing: unknown): unknown {
  if (layer.last.size === 0 || !Array.isArray(listing)) return listing;
  const isLast = (entry: unknown) =>
    layer.last.has(typeof entry === 'string' ? entry : (entry as Fs.Dirent).name);
  return [...listing.filter((entry) => !isLast(entry)), ...listing.filter(isLast)];
}

/** `node:fs/promises` through the layer; `fs` is the real `node:fs`, to resolve descriptors. */
function treePromises<M extends Record<string, unknown>>(real: M, fs: typeof Fs, layer: TreeLayer): M {
  const resolve = resolver(fs);
  const wrapped: Record<string, unknown> = { ...real };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || name === 'constants') continue;
    const fn = value as Fn;
    wrapped[name] = async (...args: unknown[]) => {
      const { real: path } = resolve(args[0]);
      layer.before?.(name, path);
      await gate(layer, name, path);
      if (name === 'rename' && layer.crossing.has(path)) {
        throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
      }
      const result = await fn(...args);
      // A directory held by descriptor is looked at with stat through /proc/self/fd/N.
      if ((name === 'lstat' || name === 'stat') && onMount(layer, path))
        return otherDevice(result as Fs.Stats);
      if (name === 'readdir') return lastOf(layer, result);
      return result;
    };
  }
  return { ...wrapped, default: wrapped } as unknown as M;
}

/** `node:fs` with its callback `open` through the layer and synchronous file calls recorded. */
function treeFs<M extends Record<string, unknown>>(real: M, layer: TreeLayer): M {
  const resolve = resolver(real as unknown as typeof Fs);
  const wrapped: Record<string, unknown> = { ...real };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || !name.endsWith('Sync')) continue;
    const fn = value as Fn;
    const spy = (...args: unknown[]) => {
      const { real: path, bare } = resolve(args[0]);
      // Reading a descriptor's own link back asks the kernel, not the file system.
      if (under(layer, path) && !(bare && name === 'readlinkSync')) layer.syncCalls.push(`${name} ${path}`);
      return fn(...args);
    };
    if ('native' in fn) Object.assign(spy, { native: spy });
    wrapped[name] = spy;
  }
  const open = real.open as Fn;
  wrapped.open = (...args: unknown[]) => {
    const callback = args.pop() as Fn;
    const path = resolve(args[0]).real;
    layer.before?.('open', path);
    void gate(layer, 'open', path).then(() => open(...args, callback));
  };
  return { ...wrapped, default: wrapped } as unknown as M;
}

/** The `node:fs/promises` factory: `layer` (hoisted, empty) is filled, and the real module wrapped. */
export async function mockTreePromises(original: () => Promise<unknown>, layer: TreeLayer) {
  Object.assign(layer, newTreeLayer());
  const fs = await vi.importActual<typeof Fs>('node:fs');
  return treePromises((await original()) as Record<string, unknown>, fs, layer);
}

/** The `node:fs` factory, over the same `layer`. */
export async function mockTreeFs<M extends Record<string, unknown>>(
  original: () => Promise<unknown>,
  layer: TreeLayer,
): Promise<M> {
  return treeFs((await original()) as M, layer);
}

/** The real `node:fs/promises`, past the layer. */
export function realFs(): Promise<typeof import('node:fs/promises')> {
  return vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
}

/**
 * A digest of every entry under `dir` read with the real `node:fs/promises`, so it can be taken
 * while the layer stalls: names, types, modes, contents.
 */
export async function realHash(dir: string): Promise<string> {
  const fs = await realFs();
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
  const walk = async (d: string): Promise<void> => {
    for (const name of (await fs.readdir(d)).sort()) {
      const p = `${d}/${name}`;
      const s = await fs.lstat(p);
      hash.update(`${p}\0${s.mode}\0${s.size}\0`);
      if (s.isSymbolicLink()) hash.update(await fs.readlink(p));
      else if (s.isDirectory()) await walk(p);
      else if (s.isFile()) hash.update(await fs.readFile(p));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}
