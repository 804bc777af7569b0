import { randomBytes } from 'node:crypto';
import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';
import { UserError } from '../errors/index.js';
import { CancelledError } from '../progress/cancel.js';
import { FinishedLedger } from './finished.js';
import { resolveTaskOptions, type TaskStoreOptions } from './options.js';
import { keepResult, stringBytes, TASK_OVERHEAD_BYTES } from './outcome.js';
import type { TaskError, TaskHandle, TaskSnapshot, TaskStatus } from './types.js';

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
  /** The result once `completed`, serialised (see {@link keepResult}). */
  resultJson?: string;
  error?: TaskError;
  /** True once `tasks/get` has returned the task's outcome. */
  delivered: boolean;
  controller: AbortController;
  waiter?: Waiter;
  /** When the task last parked or received an answer, while `input_required`. */
  waitingSince?: number;
}

const FINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * The code of a task that waited too long for answers. JSON-RPC leaves -32000 to -32099 to
 * servers; -32001 is the one MCP SDKs have used for a request that timed out.
 */
export const INPUT_TIMEOUT_CODE = -32001;

function isLive(entry: Entry): boolean {
  return !FINAL.has(entry.status);
}

/** 192 random bits: a task id is a bearer handle, so it must not be guessable. */
function newTaskId(): string {
  return randomBytes(24).toString('base64url');
}

function minutes(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m >= 1 ? `${m} minute${m === 1 ? '' : 's'}` : `${Math.round(ms / 1000)} seconds`;
}

/**
 * The tasks of one app (one process). Every task belongs to the principal that created it: to
 * anyone else its id is unknown, exactly like an id that never existed. Tasks expire `ttlMs` after
 * creation (unfinished work is stopped then). Caps bound the work one principal can start, the
 * tasks kept, and the bytes finished outcomes hold; reaching one drops finished tasks, never live
 * ones, so a task stays readable for its advertised `ttlMs` unless a cap made room with it.
 *
 * With several processes behind a load balancer a task lives only in the process that created it,
 * so requests for it must reach that process (route on the `Mcp-Name` header, which carries the
 * task id).
 */
export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly inputTimeoutMs: number;
  readonly maxResultBytes: number;
  private readonly maxLive: number;
  private readonly maxKept: number;
  private readonly maxTasks: number;
  private readonly now: () => number;
  /** In creation order, which the TTL sweep relies on. */
  private readonly tasks = new Map<string, Entry>();
  /** The finished ones, in finish order, with the bytes their outcomes hold. */
  private readonly finished = new FinishedLedger<Entry>();
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: TaskStoreOptions = {}) {
    const resolved = resolveTaskOptions(options);
    this.ttlMs = resolved.ttlMs;
    this.pollIntervalMs = resolved.pollIntervalMs;
    this.inputTimeoutMs = resolved.inputTimeoutMs;
    this.maxLive = resolved.maxLivePerPrincipal;
    this.maxKept = resolved.maxKeptPerPrincipal;
    this.maxTasks = resolved.maxTasks;
    this.maxResultBytes = resolved.maxResultBytes;
    this.now = resolved.now;
  }

  /** Tasks held now, finished or not. */
  get size(): number {
    return this.tasks.size;
  }

  /** Bytes the outcomes of finished tasks are charged now (at most `maxResultBytes`). */
  get resultBytes(): number {
    return this.finished.bytes;
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
    if (mine.length >= this.maxKept) this.evict(this.finished.victim((e) => e.principal === principal));
    if (this.tasks.size >= this.maxTasks && !this.evict(this.finished.victim())) {
      throw new UserError('The server is running as many tasks as it allows; retry in a while.');
    }
    const at = this.now();
    const entry: Entry = {
      id: newTaskId(),
      principal,
      createdAt: at,
      updatedAt: at,
      status: 'working',
      delivered: false,
      controller: new AbortController(),
    };
    this.tasks.set(entry.id, entry);
    this.startSweeper();
    return this.handle(entry);
  }

  /**
   * The task `id` if `principal` owns it and it has not expired. This is what `tasks/get` reads,
   * so a finished task returned here counts as delivered: it is the first to make room.
   */
  get(id: string, principal: string): TaskSnapshot | undefined {
    const entry = this.find(id, principal);
    if (!entry) return undefined;
    if (!isLive(entry)) entry.delivered = true;
    return this.snapshot(entry);
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
    // A client answering bit by bit is still there: its wait starts over.
    entry.waitingSince = entry.updatedAt;
    if (waiter.open.size === 0) {
      entry.waiter = undefined;
      entry.waitingSince = undefined;
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

  /**
   * Drops expired tasks, stopping any that are still running, and fails tasks that waited too long
   * for answers. Runs on its own every so often, and before every `create`.
   */
  sweep(): void {
    const now = this.now();
    for (const entry of this.tasks.values()) {
      if (now - entry.createdAt >= this.ttlMs) this.drop(entry);
      else this.checkWait(entry, now);
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
    const now = this.now();
    if (now - entry.createdAt >= this.ttlMs) {
      this.drop(entry);
      return undefined;
    }
    this.checkWait(entry, now);
    return entry;
  }

  /** Fails a task whose questions went unanswered for `inputTimeoutMs`, and stops its work. */
  private checkWait(entry: Entry, now: number): void {
    if (entry.status !== 'input_required' || entry.waitingSince === undefined) return;
    if (now - entry.waitingSince < this.inputTimeoutMs) return;
    const message =
      `The task waited ${minutes(this.inputTimeoutMs)} for answers to its questions and was ` +
      'stopped; call the tool again to start over.';
    this.settle(entry, {
      status: 'failed',
      error: { code: INPUT_TIMEOUT_CODE, message },
      statusMessage: message,
    });
    this.stop(entry);
  }

  private handle(entry: Entry): TaskHandle {
    return {
      id: entry.id,
      signal: entry.controller.signal,
      snapshot: () => this.snapshot(entry),
      complete: (result) => this.settle(entry, { status: 'completed', result }),
      fail: (error) => this.settle(entry, { status: 'failed', error, statusMessage: error.message }),
      needInput: (requests) => this.park(entry, requests),
      report: (message) => {
        if (entry.status !== 'working' || entry.statusMessage === message) return;
        entry.statusMessage = message;
        entry.updatedAt = this.now();
      },
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
      entry.waitingSince = entry.updatedAt;
    });
  }

  /**
   * Moves an unfinished task to a final state and charges its outcome to the byte budget, making
   * room first. A task that already ended, or was dropped, keeps what it had.
   */
  private settle(
    entry: Entry,
    outcome: { status: TaskStatus; result?: CallToolResult; error?: TaskError; statusMessage?: string },
  ): void {
    if (!isLive(entry) || this.tasks.get(entry.id) !== entry) return;
    const kept = outcome.result ? keepResult(outcome.result, this.maxResultBytes) : undefined;
    const bytes =
      (kept?.bytes ?? TASK_OVERHEAD_BYTES) +
      (outcome.error ? stringBytes(JSON.stringify(outcome.error)) : 0) +
      stringBytes(outcome.statusMessage ?? '');
    while (this.finished.bytes + bytes > this.maxResultBytes) {
      if (!this.evict(this.finished.victimForBytes(entry.principal, bytes))) break;
    }
    entry.status = outcome.status;
    entry.statusMessage = outcome.statusMessage;
    entry.resultJson = kept?.json;
    entry.error = outcome.error;
    entry.updatedAt = this.now();
    entry.waitingSince = undefined;
    entry.waiter?.reject(new CancelledError());
    entry.waiter = undefined;
    this.finished.add(entry, bytes);
  }

  private stop(entry: Entry): void {
    entry.controller.abort(new CancelledError());
    entry.waiter?.reject(new CancelledError());
    entry.waiter = undefined;
  }

  private drop(entry: Entry): void {
    this.tasks.delete(entry.id);
    this.finished.remove(entry);
    if (isLive(entry)) this.stop(entry);
  }

  /** Drops a finished task to make room; false when there was none to drop. */
  private evict(entry: Entry | undefined): boolean {
    if (!entry) return false;
    this.drop(entry);
    return true;
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
      ...(entry.resultJson !== undefined ? { result: JSON.parse(entry.resultJson) as CallToolResult } : {}),
      ...(entry.error !== undefined ? { error: structuredClone(entry.error) } : {}),
      ...(entry.waiter ? { inputRequests: Object.fromEntries(entry.waiter.open) } : {}),
    };
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    // Finished results would otherwise stay until the next create, and unanswered questions would
    // hold their slots; the timer never keeps the process alive on its own.
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.ttlMs, this.inputTimeoutMs, 60_000));
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
