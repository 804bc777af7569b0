/** Server bins as real processes: start over HTTP, stop with SIGTERM, and look for leftovers. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { USER_NODE } from './runtimes.js';

export interface HttpServer {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM; resolves with the exit code (null if a signal ended it). */
  stop(): Promise<number | null>;
}

/** Starts `bin` over Streamable HTTP on 127.0.0.1 and a free port; resolves with its URL. */
export function startHttp(bin: string, args: string[]): Promise<HttpServer> {
  const child = spawn(
    USER_NODE,
    [bin, '--transport', 'http', '--host', '127.0.0.1', '--port', '0', ...args],
    {
      env: { ...process.env, MCPKIT_TOKEN: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${bin} did not start within 15 s: ${err}`));
    }, 15_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${bin} exited with ${code} before listening: ${err}`));
    };
    child.once('exit', onExit);
    child.stderr?.on('data', () => {
      const url = /listening on (\S+)/.exec(err)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ url, child, stderr: () => err, stop });
    });
  });
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
