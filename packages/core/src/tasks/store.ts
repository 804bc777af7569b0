import { randomBytes } from 'node:crypto';
import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';
import { UserError } from '../errors/index.js';
import { CancelledError } from '../progress/cancel.js';

/** Where a task is in its life; the last three are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The JSON-RPC error a failed task carries. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** A task as a reader sees it: a copy, never the store's own record. */
export interface TaskSnapshot {
  readonly id: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The tool's result, once `completed`. */
  readonly result?: CallToolResult;
  /** The protocol error, once `failed`. */
  readonly error?: TaskError;
  /** The questions still open, while `input_required`. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/** What the code running a task may do with it. */
export interface TaskHandle {
  readonly id: string;
  /** Fires when the task is cancelled, expires or the app closes: the work must stop. */
  readonly signal: AbortSignal;
  snapshot(): TaskSnapshot;
  complete(result: CallToolResult): void;
  fail(error: TaskError): void;
  /**
   * Parks the task on `requests` until the client has answered every one (with `tasks/update`,
   * possibly over several calls), then resolves with the answers. Rejects if the task ends first.
   */
  needInput(requests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
}

export interface TaskStoreOptions {
  /** How long a task is kept from its creation, finished or not. Default one hour. */
  ttlMs?: number;
  /** How often clients are asked to poll `tasks/get`. Default one second. */
  pollIntervalMs?: number;
  /** Unfinished tasks one principal may have at once. Default 16. */
  maxLivePerPrincipal?: number;
  /** Tasks, finished or not, kept per principal; the oldest finished one makes room. Default 64. */
  maxKeptPerPrincipal?: number;
  /** Tasks kept in all. Default 1024. */
  maxTasks?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Waiter {
  open: Map<string, InputRequest>;
  answers: Record<string, unknown>;
  resolve(answers: Record<string, unknown>): void;
  reject(reason: unknown): void;
}

interface Entry {
  id: string;
  principal: string;
  createdAt: number;
  updatedAt: number;
  status: TaskStatus;
  statusMessage?: string;
  result?: CallToolResult;
  error?: TaskError;
  controller: AbortController;
  waiter?: Waiter;
}

const FINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

function isLive(entry: Entry): boolean {
  return !FINAL.has(entry.status);
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`The task option ${name} must be a positive integer; got ${value}.`);
  }
  return value;
}

/** 192 random bits: a task id is a bearer handle, so it must not be guessable. */
function newTaskId(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The tasks of one app (one process). Every task belongs to the principal that created it: to
 * anyone else its id is unknown, exactly like an id that never existed. Tasks expire `ttlMs` after
 * creation (unfinished work is stopped then), and caps bound both the work one principal can start
 * and the memory finished results hold.
 *
 * With several processes behind a load balancer a task lives only in the process that created it,
 * so requests for it must reach that process (route on the `Mcp-Name` header, which carries the
 * task id).
 */
export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  private readonly maxLive: number;
  private readonly maxKept: number;
  private readonly maxTasks: number;
  private readonly now: () => number;
  /** In creation order, so the first finished entry found is the oldest. */
  private readonly tasks = new Map<string, Entry>();
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = positive('ttlMs', options.ttlMs ?? 3_600_000);
    this.pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs ?? 1_000);
    this.maxLive = positive('maxLivePerPrincipal', options.maxLivePerPrincipal ?? 16);
    this.maxKept = positive('maxKeptPerPrincipal', options.maxKeptPerPrincipal ?? 64);
    this.maxTasks = positive('maxTasks', options.maxTasks ?? 1024);
    if (this.maxKept < this.maxLive) {
      throw new Error('The task option maxKeptPerPrincipal must be at least maxLivePerPrincipal.');
    }
    this.now = options.now ?? Date.now;
  }

  /** Tasks held now, finished or not. */
  get size(): number {
    return this.tasks.size;
  }

  /**
   * Starts a task for `principal`, visible to `get` as soon as this returns. Throws a
   * {@link UserError} when a cap is reached and nothing finished can make room.
   */
  create(principal: string): TaskHandle {
    if (this.closed) throw new UserError('The server is shutting down; no new task can start.');
    this.sweep();
    const mine = [...this.tasks.values()].filter((e) => e.principal === principal);
    const live = mine.filter(isLive).length;
    if (live >= this.maxLive) {
      throw new UserError(
        `This client already has ${live} unfinished tasks, the most this server allows; ` +
          'wait for one to finish or cancel one, then retry.',
      );
    }
    if (mine.length >= this.maxKept) this.evictOldestFinished(mine);
    if (this.tasks.size >= this.maxTasks && !this.evictOldestFinished(this.tasks.values())) {
      throw new UserError('The server is running as many tasks as it allows; retry in a while.');
    }
    const at = this.now();
    const entry: Entry = {
      id: newTaskId(),
      principal,
      createdAt: at,
      updatedAt: at,
      status: 'working',
      controller: new AbortController(),
    };
    this.tasks.set(entry.id, entry);
    this.startSweeper();
    return this.handle(entry);
  }

  /** The task `id` if `principal` owns it and it has not expired. */
  get(id: string, principal: string): TaskSnapshot | undefined {
    const entry = this.find(id, principal);
    return entry ? this.snapshot(entry) : undefined;
  }

  /**
   * Delivers answers to the open questions of task `id`. Answers to keys that are not open are
   * ignored; once every open question is answered the task goes back to work. Returns false when
   * the task is unknown to `principal`.
   */
  answer(id: string, principal: string, answers: Record<string, unknown>): boolean {
    const entry = this.find(id, principal);
    if (!entry) return false;
    const waiter = entry.waiter;
    if (!waiter || entry.status !== 'input_required') return true;
    let changed = false;
    for (const [key, value] of Object.entries(answers)) {
      if (!waiter.open.has(key)) continue;
      waiter.open.delete(key);
      waiter.answers[key] = value;
      changed = true;
    }
    if (!changed) return true;
    entry.updatedAt = this.now();
    if (waiter.open.size === 0) {
      entry.waiter = undefined;
      entry.status = 'working';
      entry.statusMessage = undefined;
      waiter.resolve(waiter.answers);
    }
    return true;
  }

  /**
   * Cancels task `id`: an unfinished task becomes `cancelled` at once and its work is aborted; a
   * finished one is left as it is, so cancelling twice is harmless. Returns false when the task is
   * unknown to `principal`.
   */
  cancel(id: string, principal: string): boolean {
    const entry = this.find(id, principal);
    if (!entry) return false;
    if (isLive(entry)) {
      this.settle(entry, { status: 'cancelled', statusMessage: 'The client cancelled the task.' });
      this.stop(entry);
    }
    return true;
  }

  /** Drops expired tasks, stopping any that are still running. Runs on its own every so often. */
  sweep(): void {
    const now = this.now();
    for (const entry of this.tasks.values()) {
      if (now - entry.createdAt >= this.ttlMs) this.drop(entry);
    }
    if (this.tasks.size === 0) this.stopSweeper();
  }

  /** Stops every unfinished task and forgets all of them: the app is shutting down. */
  close(): void {
    this.closed = true;
    for (const entry of this.tasks.values()) this.drop(entry);
    this.stopSweeper();
  }

  private find(id: string, principal: string): Entry | undefined {
    const entry = this.tasks.get(id);
    if (!entry || entry.principal !== principal) return undefined;
    if (this.now() - entry.createdAt >= this.ttlMs) {
      this.drop(entry);
      return undefined;
    }
    return entry;
  }

  private handle(entry: Entry): TaskHandle {
    return {
      id: entry.id,
      signal: entry.controller.signal,
      snapshot: () => this.snapshot(entry),
      complete: (result) => this.settle(entry, { status: 'completed', result }),
      fail: (error) => this.settle(entry, { status: 'failed', error, statusMessage: error.message }),
      needInput: (requests) => this.park(entry, requests),
    };
  }

  private park(entry: Entry, requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    if (!isLive(entry) || entry.controller.signal.aborted) return Promise.reject(new CancelledError());
    entry.waiter?.reject(new Error('A task asked new questions before the open ones were answered.'));
    return new Promise((resolve, reject) => {
      entry.waiter = { open: new Map(Object.entries(requests)), answers: {}, resolve, reject };
      entry.status = 'input_required';
      entry.statusMessage = 'The task is waiting for the client to answer its questions.';
      entry.updatedAt = this.now();
    });
  }

  /** Moves an unfinished task to a final state; a task that already ended keeps its outcome. */
  private settle(entry: Entry, outcome: Pick<Entry, 'status' | 'result' | 'error' | 'statusMessage'>): void {
    if (!isLive(entry)) return;
    entry.status = outcome.status;
    entry.statusMessage = outcome.statusMessage;
    entry.result = outcome.result;
    entry.error = outcome.error;
    entry.updatedAt = this.now();
    entry.waiter?.reject(new CancelledError());
    entry.waiter = undefined;
  }

  private stop(entry: Entry): void {
    entry.controller.abort(new CancelledError());
    entry.waiter?.reject(new CancelledError());
    entry.waiter = undefined;
  }

  private drop(entry: Entry): void {
    this.tasks.delete(entry.id);
    if (isLive(entry)) this.stop(entry);
  }

  private evictOldestFinished(entries: Iterable<Entry>): boolean {
    for (const entry of entries) {
      if (isLive(entry)) continue;
      this.tasks.delete(entry.id);
      return true;
    }
    return false;
  }

  private snapshot(entry: Entry): TaskSnapshot {
    return {
      id: entry.id,
      status: entry.status,
      ...(entry.statusMessage !== undefined ? { statusMessage: entry.statusMessage } : {}),
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      ...(entry.result !== undefined ? { result: entry.result } : {}),
      ...(entry.error !== undefined ? { error: entry.error } : {}),
      ...(entry.waiter ? { inputRequests: Object.fromEntries(entry.waiter.open) } : {}),
    };
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    // Finished results would otherwise stay until the next create; the timer never keeps the
    // process alive on its own.
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.ttlMs, 60_000));
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
