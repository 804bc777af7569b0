import { readdirSync, readFileSync } from 'node:fs';

/**
 * Linux reports utime/stime in USER_HZ ticks, which the kernel fixes at 100 on every architecture
 * Node runs on, whatever CONFIG_HZ is; so one tick is 10 ms.
 */
const MS_PER_TICK = 10;

/** Reads a /proc file, or undefined when the process is gone (it may exit between two reads). */
function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The pid and every live descendant, found through each thread's `children` list. */
export function processTree(pid: number): number[] {
  const seen: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    seen.push(next);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      const children = readProc(`/proc/${next}/task/${task}/children`);
      if (!children) continue;
      for (const child of children.trim().split(/\s+/)) {
        const n = Number(child);
        if (Number.isInteger(n) && n > 0 && !seen.includes(n) && !queue.includes(n)) queue.push(n);
      }
    }
  }
  return seen;
}

/** A `Vm*:` field of /proc/<pid>/status in bytes (the kernel writes kB). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readProc(`/proc/${pid}/status`);
  const match = status?.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** Resident memory of a process and its descendants, in bytes. */
export function treeRss(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) total += statusBytes(p, 'VmRSS');
  return total;
}

/** The kernel's own high-water mark of one process's resident memory, in bytes. */
export function peakRssOf(pid: number): number {
  return statusBytes(pid, 'VmHWM');
}

/** CPU time (user + system, reaped children included) of a process tree, in milliseconds. */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    const stat = readProc(`/proc/${p}/stat`);
    if (!stat) continue;
    // The command name (field 2) may hold spaces and parentheses: split after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14–17 of stat(5) (utime, stime, cutime, cstime) sit at 11–14 once pid and comm are cut.
    for (let i = 11; i <= 14; i++) ticks += Number(fields[i] ?? 0);
  }
  return ticks * MS_PER_TICK;
}

/**
 * Samples the resident memory of a process tree every `intervalMs` and keeps the peak. Samples can
 * be late while the bench's own event loop parses a large answer, so `stop` also folds in the
 * kernel's high-water mark of the root process, which no sampling gap can miss.
 */
export class RssSampler {
  #peak = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 20,
  ) {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), intervalMs);
    this.#timer.unref();
  }

  #sample(): void {
    this.#peak = Math.max(this.#peak, treeRss(this.pid));
  }

  /** Stops sampling; call before the process exits so the high-water mark is still readable. */
  stop(): number {
    clearInterval(this.#timer);
    this.#sample();
    return Math.max(this.#peak, peakRssOf(this.pid));
  }
}

/** The q-quantile (0…1) of a list, by linear interpolation; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** Latencies of a phase, in ms, and its wall time. */
export interface Phase {
  latencies: number[];
  elapsedMs: number;
}

/**
 * Runs `count` calls one after another. `after` sees each result outside the timed span, so
 * inspecting a large answer does not count as the call's latency.
 */
export async function runSequential<T>(
  count: number,
  call: (index: number) => Promise<T>,
  after?: (result: T) => void,
): Promise<Phase> {
  const latencies: number[] = [];
  let elapsedMs = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const result = await call(i);
    const took = performance.now() - t0;
    latencies.push(took);
    elapsedMs += took;
    after?.(result);
  }
  return { latencies, elapsedMs };
}

/** Runs `count` calls with `inflight` of them outstanding at any moment. */
export async function runParallel(
  count: number,
  inflight: number,
  call: (index: number) => Promise<unknown>,
): Promise<Phase> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const t0 = performance.now();
      await call(index);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inflight, count) }, worker));
  return { latencies, elapsedMs: performance.now() - start };
}
