/** The task store's options, their defaults, and the check that they make sense together. */

export interface TaskStoreOptions {
  /**
   * How long a task is kept from its creation, finished or not; advertised as `ttlMs`. Default 30
   * minutes: room for long work plus a question's wait, without holding results for an hour.
   */
  ttlMs?: number;
  /** How often clients are asked to poll `tasks/get`. Default one second. */
  pollIntervalMs?: number;
  /**
   * How long a task may wait in `input_required` with no answer arriving before it fails. Default
   * 10 minutes, so a client that never answers cannot hold a live-task slot for the whole TTL.
   */
  inputTimeoutMs?: number;
  /** Unfinished tasks one principal may have at once. Default 16. */
  maxLivePerPrincipal?: number;
  /** Tasks, finished or not, kept per principal; a finished one makes room. Default 64. */
  maxKeptPerPrincipal?: number;
  /** Tasks kept in all. Default 1024. */
  maxTasks?: number;
  /**
   * Bytes the outcomes of finished tasks may hold in all (serialised JSON, two bytes per
   * character, plus a fixed charge per task). Finished tasks make room, read ones first. A single
   * result larger than this is replaced by a short tool error. Default 64 MiB, at least 64 KiB.
   */
  maxResultBytes?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const MiB = 1024 * 1024;

function positive(name: string, value: number, least = 1): number {
  if (!Number.isSafeInteger(value) || value < least) {
    const floor = least === 1 ? 'a positive integer' : `an integer of at least ${least}`;
    throw new Error(`The task option ${name} must be ${floor}; got ${value}.`);
  }
  return value;
}

/** Every option with its default filled in; throws one sentence for a value that cannot work. */
export function resolveTaskOptions(options: TaskStoreOptions): Required<TaskStoreOptions> {
  const resolved = {
    ttlMs: positive('ttlMs', options.ttlMs ?? 30 * 60_000),
    pollIntervalMs: positive('pollIntervalMs', options.pollIntervalMs ?? 1_000),
    inputTimeoutMs: positive('inputTimeoutMs', options.inputTimeoutMs ?? 10 * 60_000),
    maxLivePerPrincipal: positive('maxLivePerPrincipal', options.maxLivePerPrincipal ?? 16),
    maxKeptPerPrincipal: positive('maxKeptPerPrincipal', options.maxKeptPerPrincipal ?? 64),
    maxTasks: positive('maxTasks', options.maxTasks ?? 1024),
    maxResultBytes: positive('maxResultBytes', options.maxResultBytes ?? 64 * MiB, 64 * 1024),
    now: options.now ?? Date.now,
  };
  if (resolved.maxKeptPerPrincipal < resolved.maxLivePerPrincipal) {
    throw new Error('The task option maxKeptPerPrincipal must be at least maxLivePerPrincipal.');
  }
  return resolved;
}
