/**
 * Content search workers kept between searches. A fresh worker costs its start and, worse, runs
 * its first thousands of files before V8 has compiled the hot code (about a tenth of a 50k-file
 * search); one kept from the last search starts warm. Only a worker that finished every file it was
 * given comes back here: one stopped mid-file (time budget, cancellation, a page cut short) is
 * terminated, since it may be deep in a runaway regex.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { companionScript } from '@mcpkit/core/progress';

/**
 * Workers one search runs side by side: two where there are two cores, one otherwise. Opening and
 * reading each file costs a few system calls, which run in parallel; the server's own thread walks
 * the tree meanwhile, and the workers yield to it (see `yieldToServer` in content-worker.ts).
 */
export const CONTENT_WORKERS = Math.min(2, availableParallelism());

/** Idle workers kept at most: one search's worth (searches at once start the rest afresh). */
const MAX_IDLE = CONTENT_WORKERS;

/** An idle worker ends after this long unused, giving its memory back. */
const IDLE_MS = 30_000;

/** A worker's heap cap: a search must not take the server down with it. */
const HEAP_MB = 256;

let workerUrl: URL | undefined;

/**
 * Where the worker script is (core's rule for scripts a server starts by path). The worker imports
 * only Node built-ins, so the compiled file serves the bundled bin too.
 */
export function contentWorkerUrl(): URL {
  workerUrl ??= companionScript(import.meta.url, 'fs/content-worker.js');
  return workerUrl;
}

/** An idle worker, its listeners (to remove when it is taken) and the timer that ends it. */
interface Idle {
  drop: () => void;
  timer: NodeJS.Timeout;
}

const idle = new Map<Worker, Idle>();

/** A worker for a search: a warm one if any is idle, else a new one. */
export function takeWorker(): Worker {
  for (const [worker, { drop, timer }] of idle) {
    idle.delete(worker);
    clearTimeout(timer);
    // Only the pool's own listeners: Node keeps listeners of its own on a Worker.
    worker.off('error', drop);
    worker.off('exit', drop);
    // One that ended while idle (its exit not yet seen) has no thread any more: -1.
    if (worker.threadId < 0) continue;
    worker.ref();
    return worker;
  }
  return new Worker(contentWorkerUrl(), { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
}

/**
 * Takes back a worker that answered every message of its search (the caller has removed its own
 * listeners). It waits without keeping the process alive, and is terminated when the pool is full,
 * when it has waited `IDLE_MS`, or if it fails while waiting.
 */
export function keepWorker(worker: Worker): void {
  if (idle.size >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  const drop = () => {
    const entry = idle.get(worker);
    if (entry) clearTimeout(entry.timer);
    idle.delete(worker);
    void worker.terminate();
  };
  worker.on('error', drop);
  worker.on('exit', drop);
  worker.unref();
  const timer = setTimeout(drop, IDLE_MS);
  timer.unref();
  idle.set(worker, { drop, timer });
}

/** Ends every idle worker (a server shutting down, a test starting clean). */
export async function endIdleWorkers(): Promise<void> {
  const workers = [...idle.keys()];
  for (const worker of workers) {
    clearTimeout(idle.get(worker)?.timer);
    idle.delete(worker);
  }
  await Promise.all(workers.map((worker) => worker.terminate()));
}
