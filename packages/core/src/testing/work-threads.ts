/**
 * Which threads of a server process are doing a call's work, told from /proc by what each thread
 * does over short sampling windows, never by how long anything takes: busy threads, threads that
 * used any CPU at all, and whether busy threads have since stopped (ended, or gone idle). Threads
 * are told apart by behaviour alone, so a server's workers count whether new or taken from a pool.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { threadCpuTimes } from './processes.js';

/** One clock tick of CPU, the least /proc can show, in a window ten ticks long. */
const BUSY_MS = 10;
const WINDOW_MS = 100;
/** Windows in a row a thread must be busy to count as working. */
const STEADY = 3;
/**
 * Windows in a row a thread that is still there must use no CPU to count as stopped: a second
 * without one clock tick, which a working thread does not show even on a crowded machine (three
 * windows can pass without a tick for a thread that gets a tenth of a core).
 */
const IDLE = 10;

/**
 * CPU each thread of `pid` but its main one (whose id is the process's) used over one window;
 * `check` runs after the window (to fail the wait once the work it watches has ended).
 */
async function cpuOverWindow(pid: number, check?: () => void): Promise<Map<number, number>> {
  const first = (await threadCpuTimes(pid)) ?? new Map<number, number>();
  await sleep(WINDOW_MS);
  check?.();
  const used = new Map<number, number>();
  for (const [tid, cpu] of (await threadCpuTimes(pid)) ?? []) {
    const start = first.get(tid);
    if (tid !== pid && start !== undefined) used.set(tid, cpu - start);
  }
  return used;
}

/**
 * Threads of `pid` but its main one busy in several windows in a row and not among `others`:
 * workers spinning on some work, not threads that woke for a moment. Waits until there is one; no
 * deadline: `check` (run after each window) fails the wait, or the test's timeout ends it. Empty
 * at once where there is no /proc.
 *
 * @example
 * ```ts
 * const controller = new AbortController(); // the signal the call under test was given
 * const spinning = await busyThreads(process.pid); // a worker deep in a runaway regex
 * controller.abort();
 * await untilThreadsStop(process.pid, spinning);
 * ```
 */
export async function busyThreads(
  pid: number,
  check?: () => void,
  others: ReadonlySet<number> = new Set(),
): Promise<Set<number>> {
  if ((await threadCpuTimes(pid)) === undefined) return new Set();
  let streak = new Map<number, number>();
  for (;;) {
    const next = new Map<number, number>();
    for (const [tid, used] of await cpuOverWindow(pid, check)) {
      if (used >= BUSY_MS && !others.has(tid)) next.set(tid, (streak.get(tid) ?? 0) + 1);
    }
    streak = next;
    const steady = [...streak].filter(([, windows]) => windows >= STEADY).map(([tid]) => tid);
    if (steady.length > 0) return new Set(steady);
  }
}

/** Threads that used any CPU over several windows: every thread some work may be running on. */
export async function activeThreads(pid: number, check: () => void): Promise<Set<number>> {
  const active = new Set<number>();
  for (let i = 0; i < STEADY; i++) {
    for (const [tid, used] of await cpuOverWindow(pid, check)) if (used > 0) active.add(tid);
  }
  return active;
}

/**
 * Waits until each of `tids` has ended or stayed idle for a second. No deadline: a thread that
 * keeps working is left to the test's timeout.
 */
export async function untilThreadsStop(pid: number, tids: ReadonlySet<number>): Promise<void> {
  const idle = new Map<number, number>();
  for (;;) {
    const used = await cpuOverWindow(pid);
    // A thread missing from the window has ended.
    const present = [...tids].filter((tid) => used.has(tid));
    for (const tid of present) idle.set(tid, (used.get(tid) ?? 0) < BUSY_MS ? (idle.get(tid) ?? 0) + 1 : 0);
    if (present.every((tid) => (idle.get(tid) ?? 0) >= IDLE)) return;
  }
}

/** Whether every one of `tids` is still a thread of `pid`. */
export async function allAlive(pid: number, tids: ReadonlySet<number>): Promise<boolean> {
  const threads = await threadCpuTimes(pid);
  return [...tids].every((tid) => threads?.has(tid));
}
