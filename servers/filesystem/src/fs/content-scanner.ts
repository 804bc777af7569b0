/**
 * The server's side of the content search worker: starting it, sending it files in batches, and
 * turning what it answers (and, at the time budget, what it had finished) into one outcome per file.
 */
import { Worker } from 'node:worker_threads';
import { companionScript } from '@mcpkit/core/progress';
import {
  type Batch,
  type BatchDone,
  FINISHED,
  type FileResult,
  STARTED,
  type WorkerConfig,
} from './content-worker.js';

let workerUrl: URL | undefined;

/**
 * Where the worker script is (core's rule for scripts a server starts by path). The worker imports
 * only Node built-ins, so the compiled file serves the bundled bin too.
 */
export function contentWorkerUrl(): URL {
  workerUrl ??= companionScript(import.meta.url, 'fs/content-worker.js');
  return workerUrl;
}

/**
 * What became of one file: its result, or, when the time budget ended the worker first, whether it
 * was the file being searched then (`running`) or not reached (`unstarted`).
 */
export type Outcome = FileResult | { stopped: 'running' | 'unstarted' };

interface Job {
  id: number;
  resolve: (outcome: Outcome) => void;
  reject: (error: Error) => void;
}

/** Most files of one directory run in a message (a run keeps one directory open in the worker). */
const BATCH = 256;

/**
 * One worker for one search. Files go in messages of several directory runs; the worker answers a
 * message with one `done` (plus one result per file with hits or skipped), and outcomes come back
 * in order.
 * `cancel` ends it at once and fails every file; `expire` (the time budget) ends it too, but first
 * settles each file by what the worker had finished, so nothing found in time is lost.
 */
export class Scanner {
  readonly #worker: Worker;
  readonly #progress = new Int32Array(new SharedArrayBuffer(8)).fill(-1);
  /** Files sent and not yet settled, in id order. */
  readonly #jobs: Job[] = [];
  /** Results the worker posted (hits or a skip), until their batch is done. */
  readonly #results = new Map<number, FileResult>();
  /** Files queued for the next message, one entry per directory run. */
  readonly #batches: Batch[] = [];
  #failure: Error | undefined;
  #expired = false;
  #next = 0;

  constructor(config: WorkerConfig) {
    // A heap cap: a worker must not take the server down with it.
    this.#worker = new Worker(contentWorkerUrl(), {
      workerData: { ...config, progress: this.#progress.buffer },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.#worker.on('message', (message: FileResult | BatchDone) => {
      if ('done' in message) this.#settle(message.done);
      else this.#results.set(message.id, message);
    });
    this.#worker.on('error', (error) => this.#fail(error));
    // Node delivers every message the worker posted before it ended, then `exit`.
    this.#worker.on('exit', () => {
      if (this.#expired) this.#settleByProgress();
      this.#fail(new Error('The content search worker stopped.'));
    });
  }

  /** Queues file `name` of directory `dir` (real paths); `skip` hits of it were already reported. */
  scan(dir: string, name: string, skip: number): Promise<Outcome> {
    const id = this.#next++;
    const outcome = new Promise<Outcome>((resolve, reject) => {
      if (this.#expired) resolve({ stopped: 'unstarted' });
      else if (this.#failure) reject(this.#failure);
      else this.#jobs.push({ id, resolve, reject });
    });
    // A file abandoned by `cancel` must not surface as an unhandled rejection.
    outcome.catch(() => {});
    if (this.#expired || this.#failure) return outcome;
    const last = this.#batches[this.#batches.length - 1];
    if (last && last.dir === dir && last.names.length < BATCH) last.names.push(name);
    else this.#batches.push({ first: id, dir, names: [name], skip });
    return outcome;
  }

  /** Sends the files queued since the last flush, as one message. */
  flush(): void {
    const batches = this.#batches.splice(0);
    if (batches.length > 0 && !this.#failure && !this.#expired) this.#worker.postMessage(batches);
  }

  /** The time budget ran out: end the worker, keeping what it finished. */
  expire(): void {
    if (this.#failure || this.#expired) return;
    this.#expired = true;
    void this.#worker.terminate();
  }

  cancel(): void {
    this.#fail(new Error('The content search was stopped.'));
    void this.#worker.terminate();
  }

  #settle(upTo: number): void {
    while (this.#jobs.length > 0 && this.#jobs[0]!.id <= upTo) {
      const { id, resolve } = this.#jobs.shift()!;
      resolve(this.#results.get(id) ?? { id, hits: [] });
      this.#results.delete(id);
    }
  }

  #settleByProgress(): void {
    const finished = Atomics.load(this.#progress, FINISHED);
    const started = Atomics.load(this.#progress, STARTED);
    this.#settle(finished);
    for (const job of this.#jobs.splice(0))
      job.resolve({ stopped: job.id === started && started > finished ? 'running' : 'unstarted' });
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const job of this.#jobs.splice(0)) job.reject(this.#failure);
  }
}
