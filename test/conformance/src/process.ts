/** A server bin over Streamable HTTP as a real process on the user's Node. */
import { spawn } from 'node:child_process';
import { type HttpBin, startHttpBin } from '@mcpkit/core/testing';
import { USER_NODE } from './runtimes.js';

/** A bin over HTTP: core's test-kit process handle. */
export type RunningServer = HttpBin;

/** Starts `bin` on a free loopback port (`--port 0`) and resolves once it prints its URL. */
export function startHttp(bin: string, args: string[]): Promise<RunningServer> {
  // A token in the runner's environment would make the suite's unauthenticated requests fail.
  return startHttpBin(bin, args, { node: USER_NODE, env: { ...process.env, MCPKIT_TOKEN: '' } });
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
