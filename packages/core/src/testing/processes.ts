/** What a test can learn about the processes it started, from /proc (Linux); elsewhere nothing. */
import { readdir, readFile } from 'node:fs/promises';

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

/** CPU time (user + system, in ms) a process has used so far, from /proc; undefined elsewhere. */
export async function cpuTimeMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  // Linux reports in clock ticks, 100 per second on every common configuration.
  return ticks * 10;
}
