import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A server bin running over Streamable HTTP as a real process. */
export interface HttpBin {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM; resolves with the exit code (null if a signal ended it). */
  stop(): Promise<number | null>;
}

export interface StartHttpBinOptions {
  /** The Node that runs the bin; default {@link userNode}. */
  node?: string;
  /** Environment; default this process's, without `MCPKIT_TOKEN` (a stray token would make unauthenticated test clients fail). */
  env?: NodeJS.ProcessEnv;
  /** Flags before the bin's own arguments, e.g. `['--page-size', '2']`. */
  flags?: string[];
  /** How long the bin may take to start listening. Default 15 s. */
  timeoutMs?: number;
}

/**
 * The first `node` on PATH outside any `node_modules/.bin`: the Node a user runs bins with. Under
 * npm scripts a dependency's `node` bin (a Node from the registry) may come first on PATH, and
 * `process.execPath` is whatever runs the tests; neither is necessarily the Node under test.
 */
export function userNode(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || /node_modules[\\/]\.bin/.test(dir)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return process.execPath;
}

/**
 * Starts a bin with `--transport http --port 0` on 127.0.0.1 and resolves once it prints
 * `listening on <url>`; rejects with its stderr if it exits or does not start in time.
 *
 * @example
 * ```ts
 * const server = await startHttpBin('servers/filesystem/dist/bin.js', [dir]);
 * const session = await connect(undefined, { era: 'modern', transport: { http: server.url } });
 * await session.close();
 * const code = await server.stop(); // 0 after a clean shutdown
 * ```
 */
export function startHttpBin(
  bin: string,
  args: string[],
  options: StartHttpBinOptions = {},
): Promise<HttpBin> {
  const env = options.env ?? { ...process.env };
  if (options.env === undefined) delete env.MCPKIT_TOKEN;
  const child = spawn(
    options.node ?? userNode(),
    [bin, '--transport', 'http', '--port', '0', ...(options.flags ?? []), ...args],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
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
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${bin} did not start listening within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
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
      resolve({ url, port: Number(new URL(url).port), child, stderr: () => err, stop });
    });
  });
}
