/**
 * Starting and stopping the query process (query-child.ts) for the runner. It is forked with the
 * compiled script, a small JavaScript heap, an empty environment and the structured-clone channel
 * ('advanced'), and unref'd so an idle one never keeps the server alive.
 *
 * Why that channel: a page crosses as one string (row-text.ts), which structured clone copies as
 * it is, while JSON escapes every quote in it and unescapes them on the other side. Measured for a
 * 10,000-row page (700 KB) on Node 20: 25 ms from send to answer against 30 ms with JSON. (For a
 * tree of cells it was the other way round, which is why pages are no longer sent as trees.)
 */

import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { UserError } from '@mcpkit/core/errors';
import { companionScript } from '@mcpkit/core/progress';
import type { DatabaseFile } from './open-database.js';
import type { ChildMessage } from './query-protocol.js';

/** Heap of the query process's JavaScript: rows of one page, never the whole result. */
const CHILD_HEAP_MB = 256;

/** Where the compiled query process script is (core's rule for scripts a server starts by path). */
export function queryChildPath(): string {
  return fileURLToPath(companionScript(import.meta.url, 'sql/query-child.js'));
}

/** Resolves once the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Kills the process with SIGKILL, whatever it is doing, and resolves once it is gone. */
export async function kill(child: ChildProcess): Promise<void> {
  // Held until it is gone: the caller is waiting for that.
  child.ref();
  child.kill('SIGKILL');
  await exited(child);
}

/**
 * Forks a query process and hands it the database. `ready` resolves once it has opened the file;
 * if it cannot, the process is killed and `ready` rejects.
 */
export function startQueryProcess(
  script: string,
  file: DatabaseFile,
): { child: ChildProcess | undefined; ready: Promise<ChildProcess> } {
  if (!existsSync(script)) {
    const missing = new Error(
      'The query process script is missing; build the package first (npm run build).',
    );
    return { child: undefined, ready: Promise.reject(missing) };
  }
  const child = fork(script, [], {
    execArgv: [`--max-old-space-size=${CHILD_HEAP_MB}`],
    // Empty: SQLITE_USE_URI in the environment would turn URI file names on in better-sqlite3.
    env: {},
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  // An idle query process must not keep the server alive; a running statement's timer does.
  child.unref();
  child.channel?.unref();
  (child.stderr as (Readable & { unref?: () => void }) | null)?.unref?.();
  // A send on a channel that just closed reports here; the 'exit' listeners settle the run.
  child.on('error', () => undefined);
  const ready = new Promise<ChildProcess>((resolve, reject) => {
    const onMessage = (reply: ChildMessage) => {
      if (reply.type === 'ready') finish(() => resolve(child));
      else if (reply.type === 'open-failed')
        finish(() => reject(new UserError('The database cannot be opened.')));
    };
    const onExit = () =>
      finish(() => reject(new Error(`The query process failed to start: ${stderr.trim()}`)));
    const finish = (settle: () => void) => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      settle();
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  ready.catch(() => child.kill('SIGKILL'));
  child.send({ type: 'open', path: file.path, write: file.write });
  return { child, ready };
}
