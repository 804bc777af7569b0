import type { ServerContext } from '@modelcontextprotocol/server';

export interface ProgressReporter {
  /** True when the caller asked for progress (sent a progress token). */
  readonly enabled: boolean;
  /**
   * Reports `value` (of `total`, when known). Values that do not increase are dropped, so the
   * stream a client sees is monotonic; reports closer together than the throttle are merged.
   */
  report(value: number, options?: { total?: number; message?: string }): void;
  /** Sends the last merged report, if any; call before returning the result. */
  flush(): void;
}

export interface ProgressOptions {
  /** Least time between two notifications. Default 100 ms. */
  throttleMs?: number;
  /** Added to every value: a multi-round call passes its round so values keep rising across rounds. */
  base?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * A progress reporter bound to one request: a no-op without a progress token.
 *
 * @example
 * ```ts
 * import { readdir, stat } from 'node:fs/promises';
 * const p = progress(call.ctx); // a definition's handler has this as call.progress
 * const files = await readdir(dir);
 * for (const [i, file] of files.entries()) {
 *   await stat(`${dir}/${file}`);
 *   p.report(i + 1, { total: files.length });
 * }
 * p.flush();
 * ```
 */
export function progress(ctx: ServerContext, options: ProgressOptions = {}): ProgressReporter {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return { enabled: false, report() {}, flush() {} };
  const throttle = options.throttleMs ?? 100;
  const base = options.base ?? 0;
  const now = options.now ?? Date.now;
  let last = Number.NEGATIVE_INFINITY;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let pending: { progress: number; total?: number; message?: string } | undefined;

  const send = (p: { progress: number; total?: number; message?: string }) => {
    lastSentAt = now();
    pending = undefined;
    // A closed connection must not turn a progress report into a failed call.
    ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
      .catch(() => {});
  };

  return {
    enabled: true,
    report(value, extra = {}) {
      const progressValue = base + value;
      if (!(progressValue > last)) return;
      last = progressValue;
      const p = {
        progress: progressValue,
        ...(extra.total !== undefined ? { total: base + extra.total } : {}),
        ...(extra.message !== undefined ? { message: extra.message } : {}),
      };
      const done = extra.total !== undefined && value >= extra.total;
      if (done || now() - lastSentAt >= throttle) send(p);
      else pending = p;
    },
    flush() {
      if (pending) send(pending);
    },
  };
}
