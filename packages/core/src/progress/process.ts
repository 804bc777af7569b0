import { spawn } from 'node:child_process';
import { UserError } from '../errors/index.js';
import { CancelledError } from './cancel.js';

export interface RunProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Kill the process after this long. Default 30 s. */
  timeoutMs?: number;
  /** Stop reading (and kill the process) past this many bytes of stdout. Default 16 MiB. */
  maxOutputBytes?: number;
  input?: string;
  /**
   * Streams stdout: called with each piece as it arrives, while the child still runs, within the
   * output cap (the piece that crosses it is cut, and nothing follows). The whole output is still
   * collected and returned. A callback that throws stops the process and fails the run with its
   * error.
   */
  onOutput?: (chunk: Buffer) => void;
  /**
   * Told the child's process id once it has started. When the run settles the child has exited,
   * so the id no longer names it: a test can check that a cancelled child is really gone.
   */
  onSpawn?: (pid: number) => void;
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when stdout went past `maxOutputBytes` and was cut. */
  truncated: boolean;
}

/**
 * Runs a program with an argument array (never a shell), bounded in time and output, and killed
 * when the call is cancelled: the child does not outlive the request that started it. With
 * `onOutput`, stdout is also handed over piece by piece as it arrives, under the same bounds, so a
 * long run can report progress before it ends.
 *
 * @example
 * ```ts
 * const { stdout } = await runProcess('git', ['--no-pager', 'status', '--porcelain'], {
 *   cwd: dir,
 *   signal: call.signal,
 * });
 * let lines = 0;
 * await runProcess('git', ['--no-pager', 'log', '--format=%H'], {
 *   cwd: dir,
 *   signal: call.signal,
 *   onOutput: (chunk) => {
 *     for (const byte of chunk) if (byte === 10) lines++;
 *     call.progress.report(lines, { message: `${lines} commits read` });
 *   },
 * });
 * ```
 */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions = {}) {
  const maxOut = options.maxOutputBytes ?? 16 * 1024 * 1024;
  return new Promise<ProcessResult>((resolve, reject) => {
    if (options.signal?.aborted) return reject(new CancelledError());
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    let why: 'cancelled' | 'timeout' | { failed: unknown } | undefined;
    const kill = (reason: NonNullable<typeof why>) => {
      why ??= reason;
      child.kill('SIGKILL');
    };
    // The caller's callbacks run inside stream events: a throw there would escape as an uncaught
    // exception and take the server down, so it becomes the run's failure instead.
    const guarded = (callback: () => void) => {
      try {
        callback();
      } catch (error) {
        kill({ failed: error });
      }
    };
    const { onOutput, onSpawn } = options;
    if (onSpawn && child.pid !== undefined) {
      const pid = child.pid;
      guarded(() => onSpawn(pid));
    }
    const onAbort = () => kill('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => kill('timeout'), options.timeoutMs ?? 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated || why !== undefined) return;
      outBytes += chunk.byteLength;
      let kept = chunk;
      if (outBytes > maxOut) {
        truncated = true;
        kept = chunk.subarray(0, chunk.byteLength - (outBytes - maxOut));
        child.kill('SIGKILL');
      }
      out.push(kept);
      if (onOutput && kept.byteLength > 0) guarded(() => onOutput(kept));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // stderr is for diagnostics: keep the first 64 KiB only.
      if (errBytes < 65_536) err.push(chunk);
      errBytes += chunk.byteLength;
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(
        e.code === 'ENOENT' ? new UserError(`The program "${command}" is not installed or not on PATH.`) : e,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (why === 'cancelled') return reject(new CancelledError());
      if (why === 'timeout') return reject(new UserError(`"${command}" took too long and was stopped.`));
      if (why !== undefined) return reject(why.failed);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        truncated,
      });
    });
    // A child that exits without reading all its input closes the pipe; the resulting EPIPE is
    // not the call's failure (the exit code says what happened) and must not crash the server.
    child.stdin.on('error', () => {});
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
