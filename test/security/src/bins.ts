/**
 * Runs a server bin over HTTP as a real process: `--transport http --port 0` prints
 * `listening on URL` on stderr, SIGTERM stops it with exit code 0.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { startHttpBin, userNode } from '@mcpkit/core/testing';
import type { Endpoint } from './requests.js';
import type { ServerUnderTest } from './servers.js';

/** The bearer token variable the runner reads. */
export const TOKEN_ENV = 'MCPKIT_TOKEN';

export interface RunningBin extends Endpoint {
  child: ChildProcess;
  /** Everything the bin wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The `node` a user would run (see core's test kit): the bins are judged on the user's Node. */
export const NODE = userNode();

/** The test runner's environment without any token it may carry, plus `extra`. */
export function binEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!(TOKEN_ENV in extra)) delete env[TOKEN_ENV];
  return env;
}

/** Starts `server` on a free loopback port, optionally requiring `token`, with extra `flags`. */
export function startBin(
  server: ServerUnderTest,
  args: string[],
  token?: string,
  flags: string[] = [],
): Promise<RunningBin> {
  return startHttpBin(server.bin, args, {
    node: NODE,
    env: binEnv(token === undefined ? {} : { [TOKEN_ENV]: token }),
    flags,
  }).then((bin) => ({ ...bin, token }));
}

/** Runs the bin to completion with `args` and `env`, for command lines that must not start. */
export function runToExit(
  server: ServerUnderTest,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 10_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [server.bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // A bin that starts anyway would run forever: that is the failure being tested for.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': it waits for the pipes, so the last words on stderr are in.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
