/**
 * The worker threads that convert pages (convert-worker.ts) to Markdown or to their list of links,
 * with a hard deadline per page. A page that passes its deadline, or whose call is cancelled, is
 * stopped by terminating its thread: linkedom, Readability and Turndown are plain JavaScript, so
 * `terminate()` ends them at once wherever they are. A thread that dies (out of memory, say)
 * fails only its own page, with a sentence, and a fresh thread takes its place, so the next page
 * finds one already started.
 *
 * Threads are unref'd: an idle one never keeps the process alive; a running page's deadline
 * timer does. Threads past the first start only when pages convert at once, and stop after
 * {@link EXTRA_IDLE_MS} without work: each one holds its garbage heap until then.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserError } from '@mcpkit/core/errors';
import { CancelledError, companionScript } from '@mcpkit/core/progress';
import type { PageContent } from './body-text.js';
import { failedError, type StopReason, stoppedError } from './convert-errors.js';
import type { ConvertRequest, ConvertTask, TaskResult, WorkerMessage } from './convert-protocol.js';
import type { PageLinks } from './links.js';
import type { HtmlLimits } from './normalize-html.js';

/** Where the compiled worker script is (core's rule for scripts a server starts by path). */
export function convertWorkerPath(): string {
  return fileURLToPath(companionScript(import.meta.url, 'html/convert-worker.js'));
}

/** How the threads are made. */
export interface ConvertWorkersOptions {
  /** Threads converting at the same time; more pages wait their turn. */
  size: number;
  /** Cap on each thread's JavaScript heap (old generation), in MB. */
  heapMb: number;
}

/** One page to work on; a `raw` fetch never comes here (convert-page.ts decodes it in-thread). */
export interface ConvertJob {
  body: Uint8Array;
  contentType: string;
  url: URL;
  limits?: HtmlLimits;
  /** The hard deadline, counted from when a thread takes the page (its start-up included if new). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Idle time after which a thread beyond the first is stopped. */
export const EXTRA_IDLE_MS = 30_000;

interface Pending {
  job: ConvertJob;
  task: ConvertTask;
  resolve: (result: TaskResult) => void;
  reject: (error: Error) => void;
  onAbort: () => void;
}

interface Slot {
  worker: Worker;
  exited: Promise<void>;
  /** The page this thread is converting. */
  running?: { id: number; pending: Pending; timer: NodeJS.Timeout };
  /** It answered `ready` once: it can start, so replacing it will not loop. */
  ready: boolean;
  stopping?: StopReason;
  /** Ends once idle and is not replaced (closed, or an extra thread left idle). */
  retired: boolean;
  /** Stops this thread when it stays idle while another one is alive. */
  idleTimer?: NodeJS.Timeout;
  /** What the thread reported before it died (its out-of-memory error, say). */
  error?: Error & { code?: string };
}

/**
 * A small set of conversion threads with a queue.
 *
 * @example
 * ```ts
 * const workers = new ConvertWorkers({ size: 1, heapMb: 256 });
 * const page = await workers.convert({ body, contentType, url, timeoutMs: 10_000 });
 * const { links } = await workers.links({ body, contentType, url, timeoutMs: 10_000 }, true);
 * await workers.close();
 * ```
 */
export class ConvertWorkers {
  readonly #options: ConvertWorkersOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Pending[] = [];
  #nextId = 1;

  constructor(options: ConvertWorkersOptions) {
    this.#options = options;
  }

  /** Threads alive now: started and not yet exited (a stopped thread counts until it is gone). */
  get threads(): number {
    return this.#slots.size;
  }

  /** The thread ids of the live threads, oldest first. */
  threadIds(): number[] {
    return [...this.#slots].map((slot) => slot.worker.threadId);
  }

  /** Threads working on a page now. */
  get busy(): number {
    return [...this.#slots].filter((slot) => slot.running).length;
  }

  /** Converts one page in a thread, within `job.timeoutMs`; rejects with a sentence otherwise. */
  convert(job: ConvertJob): Promise<PageContent> {
    return this.#submit(job, { kind: 'markdown' }) as Promise<PageContent>;
  }

  /** Lists the links of one page in a thread, under the same deadline and caps as `convert`. */
  links(job: ConvertJob, sameOrigin = false): Promise<PageLinks> {
    return this.#submit(job, { kind: 'links', sameOrigin }) as Promise<PageLinks>;
  }

  #submit(job: ConvertJob, task: ConvertTask): Promise<TaskResult> {
    if (job.signal?.aborted) return Promise.reject(new CancelledError());
    return new Promise<TaskResult>((resolve, reject) => {
      const pending: Pending = { job, task, resolve, reject, onAbort: () => this.#abort(pending) };
      job.signal?.addEventListener('abort', pending.onAbort, { once: true });
      this.#queue.push(pending);
      this.#dispatch();
    });
  }

  /**
   * Stops the threads: idle ones now, busy ones once their page is done (each within its
   * deadline). Resolves when they are gone. A later `convert` starts a fresh thread.
   */
  async close(): Promise<void> {
    const slots = [...this.#slots];
    for (const slot of slots) {
      slot.retired = true;
      clearTimeout(slot.idleTimer);
      if (!slot.running) void slot.worker.terminate();
    }
    await Promise.all(slots.map((slot) => slot.exited));
  }

  #abort(pending: Pending): void {
    const queued = this.#queue.indexOf(pending);
    if (queued !== -1) {
      this.#queue.splice(queued, 1);
      pending.reject(new CancelledError());
      return;
    }
    for (const slot of this.#slots) if (slot.running?.pending === pending) this.#stop(slot, 'cancelled');
  }

  /** Threads that may take another page. */
  #available(): Slot[] {
    return [...this.#slots].filter((s) => !s.stopping && !s.retired);
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const available = this.#available();
      let slot = available.find((s) => !s.running);
      if (!slot) {
        if (available.length >= this.#options.size) return;
        try {
          slot = this.#spawn();
        } catch (error) {
          for (const pending of this.#queue.splice(0))
            this.#settle(pending, () => pending.reject(error as Error));
          return;
        }
      }
      this.#run(slot, this.#queue.shift() as Pending);
    }
  }

  #run(slot: Slot, pending: Pending): void {
    const { job } = pending;
    const id = this.#nextId++;
    // A buffer of exactly the body's bytes, made once and handed over: the caller keeps its own
    // bytes (the page cache holds them), and a view into a larger buffer never sends the rest.
    const body = job.body.slice();
    const request: ConvertRequest = {
      id,
      task: pending.task,
      body,
      contentType: job.contentType,
      url: job.url.href,
      ...(job.limits ? { limits: job.limits } : {}),
    };
    clearTimeout(slot.idleTimer);
    const timer = setTimeout(() => this.#stop(slot, 'deadline'), job.timeoutMs);
    slot.running = { id, pending, timer };
    slot.worker.postMessage(request, [body.buffer]);
  }

  #stop(slot: Slot, reason: StopReason): void {
    if (slot.stopping) return;
    slot.stopping = reason;
    void slot.worker.terminate();
  }

  #settle(pending: Pending, settle: () => void): void {
    pending.job.signal?.removeEventListener('abort', pending.onAbort);
    settle();
  }

  #spawn(): Slot {
    const script = convertWorkerPath();
    if (!existsSync(script))
      throw new Error(
        'The page conversion worker script is missing; build the package first (npm run build).',
      );
    const worker = new Worker(script, {
      name: 'fetch-html-convert',
      resourceLimits: { maxOldGenerationSizeMb: this.#options.heapMb },
      // Not the server's flags: `node --input-type=module -e …` or a loader would break this script.
      execArgv: [],
      // Its stdout must never reach the server's, which may be the MCP stdio channel. It is not
      // read either: reading a worker's stdout refs the thread, and it would keep the process up.
      stdout: true,
    });
    let onExit: () => void = () => undefined;
    const slot: Slot = {
      worker,
      ready: false,
      retired: false,
      exited: new Promise<void>((resolve) => (onExit = resolve)),
    };
    worker.on('message', (message: WorkerMessage) => this.#onMessage(slot, message));
    worker.on('error', (error) => {
      slot.error = error;
    });
    worker.on('exit', () => {
      this.#onExit(slot);
      onExit();
    });
    // Last: a 'message' listener added after unref() refs the thread again (nodejs/node#53036).
    worker.unref();
    this.#slots.add(slot);
    return slot;
  }

  #onMessage(slot: Slot, message: WorkerMessage): void {
    if ('ready' in message) {
      slot.ready = true;
      return;
    }
    const running = slot.running;
    // A page whose thread is being killed gets the kill's sentence (from #onExit), not a late answer.
    if (!running || running.id !== message.id || slot.stopping) return;
    clearTimeout(running.timer);
    slot.running = undefined;
    const { pending } = running;
    this.#settle(pending, () => {
      if (message.ok) pending.resolve(message.result);
      else if ('userError' in message) pending.reject(new UserError(message.userError));
      else pending.reject(failedError({ ...pending.job, task: pending.task }));
    });
    if (slot.retired) void slot.worker.terminate();
    this.#dispatch();
    if (!slot.running && !slot.retired) this.#retireWhenIdle(slot);
  }

  #retireWhenIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      const others = this.#available().some((s) => s !== slot);
      if (slot.running || slot.retired || !others) return;
      slot.retired = true;
      void slot.worker.terminate();
    }, EXTRA_IDLE_MS);
    slot.idleTimer.unref();
  }

  #onExit(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    this.#slots.delete(slot);
    const running = slot.running;
    if (running) {
      clearTimeout(running.timer);
      slot.running = undefined;
      const { job, task } = running.pending;
      const error = stoppedError({ ...job, task }, slot.stopping, slot.error?.code);
      this.#settle(running.pending, () => running.pending.reject(error));
    }
    // A thread that was killed or died is replaced at once, so the next page finds one loaded;
    // one that never started is not, or a broken install would restart threads forever.
    if (!slot.retired && slot.ready && this.#available().length === 0) {
      try {
        this.#spawn();
      } catch {
        // The script vanished; the next convert reports it.
      }
    }
    this.#dispatch();
  }
}
