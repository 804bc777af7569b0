/**
 * The server's side of the content search workers: sending them files in batches, and turning what
 * they answer (and, at the time budget, what they had finished) into one outcome per file, in the
 * order the files were added.
 */
import type { Worker } from 'node:worker_threads';
import type { Batch, BatchDone, FileResult, SearchStart, WorkerConfig } from './content-messages.js';
import { FINISHED, STARTED } from './content-worker.js';
import { CONTENT_WORKERS, keepWorker, takeWorker } from './content-worker-pool.js';

/**
 * What became of one file: its result, or, when the time budget ended the workers first, whether
 * it was the file being searched then (`running`) or not reached (`unstarted`).
 */
export type Outcome = FileResult | { stopped: 'running' | 'unstarted' };

/** Most files of one directory run in a batch (a run keeps one directory open in the worker). */
const BATCH = 256;

/**
 * Files per message: a message costs tens of microseconds on each side, about what a small file
 * costs to search, so files travel by the hundred; few enough that a worker is never long without
 * its next message.
 */
const MESSAGE_FILES = 256;

/** One worker and the progress it shares: the ids of the file it last started and last finished. */
interface Lane {
  worker: Worker;
  progress: Int32Array;
  /** Files sent to it and not yet answered. */
  load: number;
  exited: boolean;
  onMessage: (message: FileResult | BatchDone) => void;
  onError: (error: Error) => void;
  onExit: () => void;
}

/** One message: the ids `first`..`last`, all given to one lane. */
interface Sent {
  first: number;
  last: number;
  lane: Lane;
  done: boolean;
}

/**
 * The workers of one search. Files are added in walk order and go out in messages of several
 * directory runs, each message to the least busy worker; a worker answers a message with one `done`
 * (plus one result per file with hits or skipped). Outcomes are read back in order with `outcome`,
 * without a promise per file; `wait` resolves when more may be known.
 * `cancel` ends the workers at once and fails the search; `expire` (the time budget) ends them too,
 * but first settles each file by what they had finished, so nothing found in time is lost.
 */
export class Scanner {
  readonly #lanes: Lane[] = [];
  /** Messages not yet settled, in id order. */
  readonly #sent: Sent[] = [];
  /** Results the workers posted (hits or a skip), until they are read. */
  readonly #results = new Map<number, FileResult>();
  /** Files queued for the next message, one entry per directory run. */
  #batches: Batch[] = [];
  #queued = 0;
  #next = 0;
  /** Every id below this has its outcome. */
  #settled = 0;
  /** After the time budget: the id that was being searched, if any (ids from `#settled` on stopped). */
  #running = -1;
  #final = false;
  #expired = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(config: WorkerConfig, workers = CONTENT_WORKERS) {
    for (let i = 0; i < Math.max(1, workers); i++) this.#lanes.push(this.#start(config));
  }

  #start(config: WorkerConfig): Lane {
    const progress = new Int32Array(new SharedArrayBuffer(8)).fill(-1);
    const worker = takeWorker();
    worker.postMessage({ search: { ...config, progress: progress.buffer } } satisfies SearchStart);
    const lane: Lane = {
      worker,
      progress,
      load: 0,
      exited: false,
      onMessage: (message) => {
        if ('done' in message) this.#answered(lane, message.done);
        else this.#results.set(message.id, message);
      },
      onError: (error) => this.#fail(error),
      // Node delivers every message the worker posted before it ended, then `exit`.
      onExit: () => {
        lane.exited = true;
        if (!this.#expired) this.#fail(new Error('The content search worker stopped.'));
        else if (this.#lanes.every((l) => l.exited)) this.#settleByProgress();
      },
    };
    worker.on('message', lane.onMessage);
    worker.on('error', lane.onError);
    worker.on('exit', lane.onExit);
    return lane;
  }

  /**
   * Queues file `name` of directory `dir` (real paths); `skip` hits of it were already reported.
   * Returns its id: ids count up from 0 in the order files are added.
   */
  add(dir: string, name: string, skip: number): number {
    const id = this.#next++;
    if (this.#expired || this.#failure) return id;
    const last = this.#batches[this.#batches.length - 1];
    if (last && last.dir === dir && skip === 0 && last.names.length < BATCH) last.names.push(name);
    else this.#batches.push({ first: id, dir, names: [name], skip });
    if (++this.#queued >= MESSAGE_FILES) this.flush();
    return id;
  }

  /** Sends the files queued since the last message, as one message. */
  flush(): void {
    const batches = this.#batches;
    if (batches.length === 0) return;
    this.#batches = [];
    const files = this.#queued;
    this.#queued = 0;
    if (this.#failure || this.#expired) return;
    const lane = this.#lanes.reduce((a, b) => (b.load < a.load ? b : a));
    const last = batches[batches.length - 1]!;
    lane.load += files;
    this.#sent.push({
      first: batches[0]!.first,
      last: last.first + last.names.length - 1,
      lane,
      done: false,
    });
    lane.worker.postMessage(batches);
  }

  /**
   * The outcome of file `id`, once known (else `undefined`: `wait`, then ask again). Each is given
   * once: a result is let go when read.
   */
  outcome(id: number): Outcome | undefined {
    if (id < this.#settled) {
      const result = this.#results.get(id);
      if (!result) return { id, hits: [] };
      this.#results.delete(id);
      return result;
    }
    if (this.#final) return { stopped: id === this.#running ? 'running' : 'unstarted' };
    if (this.#failure) throw this.#failure;
    return undefined;
  }

  /**
   * Resolves when a worker answers, or the search ends; rejects when it failed. Files must have
   * been sent (`flush`) for an answer to come.
   */
  wait(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#final) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const previous = this.#wake;
      this.#wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** The time budget ran out: end the workers, keeping what they finished. */
  expire(): void {
    if (this.#failure || this.#expired) return;
    this.#expired = true;
    for (const lane of this.#lanes) void lane.worker.terminate();
  }

  cancel(): void {
    this.#fail(new Error('The content search was stopped.'));
    for (const lane of this.#lanes) void lane.worker.terminate();
  }

  /**
   * The search is over: a worker that answered every file it was given goes back to the pool for
   * the next search; one still busy (the page filled before its files were reported) is ended.
   */
  close(): void {
    const healthy = !this.#failure && !this.#expired;
    this.#fail(new Error('The content search was closed.'));
    for (const lane of this.#lanes) {
      if (healthy && !lane.exited && lane.load === 0) {
        lane.worker.off('message', lane.onMessage);
        lane.worker.off('error', lane.onError);
        lane.worker.off('exit', lane.onExit);
        keepWorker(lane.worker);
      } else void lane.worker.terminate();
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #answered(lane: Lane, upTo: number): void {
    const message = this.#sent.find((m) => m.lane === lane && !m.done && m.last === upTo);
    if (!message) return;
    message.done = true;
    lane.load -= message.last - message.first + 1;
    while (this.#sent[0]?.done) this.#settled = this.#sent.shift()!.last + 1;
    this.#notify();
  }

  /**
   * Every worker has ended at the time budget, and every result it posted is in: settle the files
   * each had finished, in order, up to the first one that was not; that one was running if its
   * worker had started it. Files after it are dropped even if finished: the cursor resumes there.
   */
  #settleByProgress(): void {
    for (const message of this.#sent) {
      const finished = Atomics.load(message.lane.progress, FINISHED);
      const started = Atomics.load(message.lane.progress, STARTED);
      // A worker takes its messages in order: one that finished a later id finished this message.
      if (finished >= message.last) {
        this.#settled = message.last + 1;
        continue;
      }
      this.#settled = Math.max(message.first, finished + 1);
      if (started === this.#settled && started > finished) this.#running = started;
      break;
    }
    this.#sent.length = 0;
    this.#final = true;
    this.#notify();
  }

  #fail(error: Error): void {
    if (this.#final) return;
    this.#failure ??= error;
    this.#notify();
  }
}
