/**
 * What a test can see of query processes from outside: whether a process still exists, and which
 * query process of a server is working now (from /proc, so Linux only). Shared by the tool tests
 * and the end-to-end scenario, which watches the built bin's query processes.
 */
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuTimeMs } from '@mcpkit/core/testing';

/** True while a process with this id exists (ours to signal: the same user started it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A query process of `server` (its child running the query script) seen using CPU over a tenth of
 * a second, or undefined when none is (or there is no /proc). One look; callers poll.
 */
export async function busyQueryProcess(server: number): Promise<number | undefined> {
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (!new RegExp(`^PPid:\\s+${server}$`, 'm').test(status)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const before = cmdline.includes('query-child') ? await cpuTimeMs(Number(entry)) : undefined;
    if (before === undefined) continue;
    await sleep(100);
    const after = await cpuTimeMs(Number(entry));
    if (after !== undefined && after - before >= 15) return Number(entry);
  }
  await sleep(50);
  return undefined;
}
