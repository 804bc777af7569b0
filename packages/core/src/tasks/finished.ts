/** What the ledger needs to know of a finished task. */
export interface FinishedTask {
  readonly id: string;
  readonly principal: string;
  /** True once `tasks/get` has handed its outcome to the client. */
  readonly delivered: boolean;
}

/**
 * The finished tasks of a store, in the order they finished, with the bytes each one's outcome is
 * charged. It decides which finished task makes room when a cap is reached: one whose outcome the
 * client has already read goes before one it has not, and within each group the one that finished
 * longest ago goes first. Creation order would be wrong: a long task created early and finished
 * just now would be dropped before its client had a chance to read it.
 */
export class FinishedLedger<T extends FinishedTask> {
  /** Insertion order is finish order. */
  readonly #entries = new Map<string, { task: T; bytes: number }>();
  readonly #byPrincipal = new Map<string, number>();
  #bytes = 0;

  /** Bytes charged to every finished task. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Bytes charged to the finished tasks of `principal`. */
  bytesOf(principal: string): number {
    return this.#byPrincipal.get(principal) ?? 0;
  }

  add(task: T, bytes: number): void {
    this.remove(task);
    this.#entries.set(task.id, { task, bytes });
    this.#bytes += bytes;
    this.#byPrincipal.set(task.principal, this.bytesOf(task.principal) + bytes);
  }

  remove(task: T): void {
    const kept = this.#entries.get(task.id);
    if (!kept || kept.task !== task) return;
    this.#entries.delete(task.id);
    this.#bytes -= kept.bytes;
    const left = this.bytesOf(task.principal) - kept.bytes;
    if (left > 0) this.#byPrincipal.set(task.principal, left);
    else this.#byPrincipal.delete(task.principal);
  }

  /** The finished task to drop first among those `match` accepts: read ones, then the oldest. */
  victim(match: (task: T) => boolean = () => true): T | undefined {
    let oldestUnread: T | undefined;
    for (const { task } of this.#entries.values()) {
      if (!match(task)) continue;
      if (task.delivered) return task;
      oldestUnread ??= task;
    }
    return oldestUnread;
  }

  /**
   * The finished task to drop so that `incoming` bytes for `owner` fit. Read outcomes go first,
   * whoever owns them. Among unread ones the principal holding the most bytes (counting what
   * `owner` is about to add) gives up its oldest, so one client's large results cannot push out
   * another client's unread ones.
   */
  victimForBytes(owner: string, incoming: number): T | undefined {
    const read = this.victim((task) => task.delivered);
    if (read) return read;
    let heaviest = owner;
    let most = this.bytesOf(owner) + incoming;
    for (const [principal, bytes] of this.#byPrincipal) {
      if (bytes > most) {
        heaviest = principal;
        most = bytes;
      }
    }
    return this.victim((task) => task.principal === heaviest) ?? this.victim();
  }
}
