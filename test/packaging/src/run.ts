/**
 * Child processes as a user outside the monorepo would run them. Inside `npm test` the
 * environment carries npm's per-script settings (`npm_config_*`, the workspace's prefix) and a
 * PATH led by `node_modules/.bin` folders, which can even hold another Node; a user who installed
 * our tarballs has none of that, so every child here gets a cleaned copy.
 */
import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';

/** PATH without any `node_modules/.bin` entry. */
export function userPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !/node_modules[\\/]\.bin/.test(dir))
    .join(delimiter);
}

/** The environment with npm's script variables and the workspace's bin folders removed. */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^npm_/i.test(name) || name === 'INIT_CWD' || name === 'MCPKIT_TOKEN')
      continue;
    env[name] = value;
  }
  return { ...env, PATH: userPath(), ...extra };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` to completion; rejects only on a spawn failure or the timeout. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs?: number; env?: Record<string, string> },
): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? userEnv(),
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
      reject(new Error(`${command} ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Like {@link run}, but a non-zero exit is an error that quotes the command's stderr. */
export async function runOk(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs?: number; env?: Record<string, string> },
): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.code} in ${options.cwd}\n${result.stderr}`,
    );
  }
  return result;
}
