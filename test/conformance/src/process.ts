/** A server bin over Streamable HTTP as a real process on the user's Node. */
import { type ChildProcess, spawn } from 'node:child_process';
import { USER_NODE } from './runtimes.js';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `bin` on a free loopback port (`--port 0`) and resolves once it prints its URL. */
export function startHttp(bin: string, args: string[]): Promise<RunningServer> {
  const child = spawn(USER_NODE, [bin, '--transport', 'http', '--port', '0', ...args], {
    // A token in the runner's environment would make the suite's unauthenticated requests fail.
    env: { ...process.env, MCPKIT_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

/** Runs a command to completion and collects its output. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} still running after ${options.timeoutMs} ms:\n${stderr}`));
    }, options.timeoutMs);
    // 'close' waits for the pipes, so the last output is in.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
