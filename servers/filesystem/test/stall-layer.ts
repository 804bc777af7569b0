/**
 * A slow file system layer for tests: while it is stalled, every asynchronous file call on paths
 * under one directory waits, as a call on a dead NFS server waits, until the test releases it. It
 * counts those calls in flight (each would hold a thread-pool thread on a real mount), and records
 * every synchronous call under that directory (each would have stopped the whole server).
 *
 * Used through `vi.mock('node:fs')` and `vi.mock('node:fs/promises')` in the test file, which hand
 * the real modules to {@link stalling} and {@link watchingSync}.
 */

/** The shared state of the layer; one per test file. */
export interface StallLayer {
  /** The directory whose calls stall (set it before {@link StallLayer.stall}). */
  dir: string;
  stalled: boolean;
  /** Calls under `dir` started and not yet returned. */
  inFlight: number;
  /** The most there ever were at once. */
  maxInFlight: number;
  /** Synchronous calls under `dir`: what they were and on which path. */
  syncCalls: string[];
  waiting: (() => void)[];
  /** Resolved whenever a call starts waiting. */
  held: Promise<void>;
  heldNow: () => void;
}

export function newLayer(): StallLayer {
  const layer: StallLayer = {
    dir: '\0none',
    stalled: false,
    inFlight: 0,
    maxInFlight: 0,
    syncCalls: [],
    waiting: [],
    held: Promise.resolve(),
    heldNow: () => {},
  };
  return layer;
}

/** Stalls calls under `layer.dir` from now on; resolves `layer.held` at the first one that waits. */
export function stall(layer: StallLayer): void {
  layer.stalled = true;
  layer.maxInFlight = layer.inFlight;
  layer.held = new Promise((resolve) => {
    layer.heldNow = resolve;
  });
}

/** The mount comes back: every waiting call goes on. */
export function release(layer: StallLayer): void {
  layer.stalled = false;
  for (const go of layer.waiting.splice(0)) go();
}

function under(layer: StallLayer, path: unknown): boolean {
  const text = path instanceof URL ? path.pathname : typeof path === 'string' ? path : String(path ?? '');
  return text === layer.dir || text.startsWith(`${layer.dir}/`);
}

async function passGate(layer: StallLayer): Promise<void> {
  if (!layer.stalled) return;
  layer.heldNow();
  await new Promise<void>((go) => layer.waiting.push(go));
}

type Fn = (...args: unknown[]) => unknown;

/** `node:fs/promises` with every path call through the gate. */
export function stalling<M extends Record<string, unknown>>(real: M, layer: StallLayer): M {
  const wrapped: Record<string, unknown> = { ...real };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || name === 'constants') continue;
    const fn = value as Fn;
    wrapped[name] = async (...args: unknown[]) => {
      if (!under(layer, args[0])) return fn(...args);
      layer.inFlight += 1;
      layer.maxInFlight = Math.max(layer.maxInFlight, layer.inFlight);
      try {
        await passGate(layer);
        return await fn(...args);
      } finally {
        layer.inFlight -= 1;
      }
    };
  }
  return { ...wrapped, default: wrapped } as unknown as M;
}

/** `node:fs` with its callback `open` through the gate and its synchronous path calls recorded. */
export function watchingSync<M extends Record<string, unknown>>(real: M, layer: StallLayer): M {
  const wrapped: Record<string, unknown> = { ...real };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || !name.endsWith('Sync')) continue;
    const fn = value as Fn;
    const spy = (...args: unknown[]) => {
      if (under(layer, args[0])) layer.syncCalls.push(name);
      return fn(...args);
    };
    if ('native' in fn) Object.assign(spy, { native: spy });
    wrapped[name] = spy;
  }
  const open = real.open as Fn;
  wrapped.open = (...args: unknown[]) => {
    if (!under(layer, args[0])) return open(...args);
    layer.inFlight += 1;
    layer.maxInFlight = Math.max(layer.maxInFlight, layer.inFlight);
    const callback = args.pop() as Fn;
    void passGate(layer).then(() =>
      open(...args, (...result: unknown[]) => {
        layer.inFlight -= 1;
        callback(...result);
      }),
    );
  };
  return { ...wrapped, default: wrapped } as unknown as M;
}
