/** What a test can learn about the processes it started, from /proc (Linux); elsewhere nothing. */
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Processes whose command line or environment contains `marker`, this one excepted. A test that
 * gives each server it starts a marker of its own (a directory in its arguments, or a variable in
 * its environment, which children inherit) finds that server, its probe siblings and its children.
 * Where there is no /proc the answer is empty.
 */
export async function processesMentioning(marker: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const environ = cmdline.includes(marker)
      ? ''
      : await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (cmdline.includes(marker) || environ.includes(marker)) found.push(Number(entry));
  }
  return found;
}

/** User + system CPU time in a /proc `stat` line, in ms. */
function statCpuMs(stat: string): number {
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  // Linux reports in clock ticks, 100 per second on every common configuration.
  return ticks * 10;
}

/** CPU time (user + system, in ms) a process has used so far, from /proc; undefined elsewhere. */
export async function cpuTimeMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined ? undefined : statCpuMs(stat);
}

/**
 * Bytes a process has read so far through read system calls, from /proc (`rchar`: files, pipes and
 * sockets, every thread counted); undefined elsewhere. A count of work, where a clock would be noise.
 */
export async function bytesReadBy(pid: number): Promise<number | undefined> {
  const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => undefined);
  const rchar = io && /^rchar: (\d+)$/m.exec(io)?.[1];
  return rchar ? Number(rchar) : undefined;
}

/**
 * The threads of a process (worker threads included) with the CPU time each has used so far, in
 * ms, from /proc; undefined where there is none. A thread that ends between the listing and the
 * reading of its time is left out, as it would be from the next listing.
 */
export async function threadCpuTimes(pid: number): Promise<Map<number, number> | undefined> {
  let tids: string[];
  try {
    tids = await readdir(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const times = new Map<number, number>();
  for (const tid of tids) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => undefined);
    if (stat !== undefined) times.set(Number(tid), statCpuMs(stat));
  }
  return times;
}

/**
 * Waits until none of `tids` is a thread of `pid` any more (a worker terminated, say). No deadline
 * of its own: a thread that stays is left to the test's timeout. Returns at once without /proc.
 */
export async function untilThreadsEnd(pid: number, tids: Iterable<number>): Promise<void> {
  const waiting = [...tids];
  for (;;) {
    const alive = await threadCpuTimes(pid);
    if (!alive || waiting.every((tid) => !alive.has(tid))) return;
    await sleep(50);
  }
}
