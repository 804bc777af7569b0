/** Server bins as real processes: start over HTTP, stop with SIGTERM, and look for leftovers. */

import { readdir, readFile } from 'node:fs/promises';
import { type HttpBin, startHttpBin } from '@mcpkit/core/testing';
import { USER_NODE } from './runtimes.js';

/** A bin over HTTP: core's test-kit process handle. */
export type HttpServer = HttpBin;

/** Starts `bin` over Streamable HTTP on 127.0.0.1 and a free port; resolves with its URL. */
export function startHttp(bin: string, args: string[]): Promise<HttpServer> {
  return startHttpBin(bin, args, { node: USER_NODE, env: { ...process.env, MCPKIT_TOKEN: '' } });
}

/**
 * Processes whose command line contains `marker` (each test serves its own temporary directory,
 * so its path names the processes that test started, probe siblings included). Linux only: where
 * there is no /proc the answer is empty and the check proves nothing, which is said in the test.
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
    if (cmdline.includes(marker)) found.push(Number(entry));
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
