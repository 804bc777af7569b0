import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export type Era = 'legacy' | 'modern';

/** A server under test, reached over stdio. */
export interface ServerTarget {
  kind: 'server';
  /** Stable id used in the JSON and in `--targets`. */
  id: string;
  label: string;
  /** `ours` rows get ratios against the `peer` and `floor` rows of the same round. */
  role: 'ours' | 'peer';
  era: Era;
  /** Which implementation's tool calls a scenario uses for this target (`ours`, `official`). */
  impl: string;
  /** The bin to run with `node`; its arguments come from the fixture a scenario runs on. */
  bin: string;
  /** Extra environment variables for its process. */
  env?: Readonly<Record<string, string>>;
}

/**
 * The same work done in the bench process with plain Node; a scenario's floor may add one round
 * trip to a minimal SDK server (echo-floor.ts) and then says so in its row's label.
 */
export interface FloorTarget {
  kind: 'floor';
  id: 'floor';
  label: string;
  role: 'floor';
}

export type Target = ServerTarget | FloorTarget;

/** Largest answer the SDK's stdio client accepts by default; a bigger one closes the connection. */
export const DEFAULT_CLIENT_CAP_BYTES = 10 * 1024 * 1024;
/**
 * The bench's own client accepts far more than that, so an oversized answer is still timed; the
 * answer size is recorded and checked against the default cap instead.
 */
const BENCH_CLIENT_CAP_BYTES = 512 * 1024 * 1024;
/** Generous: one 50k-file walk of a slow peer takes seconds, and a timeout would hide the number. */
const CALL_TIMEOUT_MS = 300_000;

const require = createRequire(import.meta.url);

/** The version of an installed package, for a peer's label. */
export function versionOf(pkg: string): string {
  const manifest = JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** The file a package's `bin` entry points at, resolved from the installed package. */
export function binOf(pkg: string, name?: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin =
    typeof manifest.bin === 'string'
      ? manifest.bin
      : manifest.bin?.[name ?? Object.keys(manifest.bin ?? {})[0]!];
  if (!bin) throw new Error(`${pkg} declares no bin${name ? ` named ${name}` : ''}.`);
  return join(dirname(manifestPath), bin);
}

/**
 * A subclass probes for the 2026 era on the connection itself. The SDK's base class would spawn a
 * throwaway sibling process for the probe, which would land in the cold start and run beside the
 * server being measured.
 */
class InPlaceStdioTransport extends StdioClientTransport {}

/** One live server process and the client connected to it. */
export interface Session {
  pid: number;
  /** Spawn to the first answer (`initialize` or `server/discover`), in ms. */
  coldStartMs: number;
  /** A tool call, and the size of its answer as JSON (what crossed the pipe, give or take framing). */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** A raw `tools/list`, bypassing the client's result cache so every call reaches the server. */
  listTools(): Promise<number>;
  /** The last lines the server wrote to stderr, for error reports. */
  stderrTail(): string;
  close(): Promise<void>;
}

/** What a session needs of a target: a server under test, or a helper such as the floor's echo server. */
export type SessionSpec = Pick<ServerTarget, 'label' | 'era' | 'bin' | 'env'>;

/**
 * Spawns the server with `args` (a scenario's own flags, then its fixture's: a directory, a
 * repository, a URL) and connects in the target's era.
 */
export async function openSession(target: SessionSpec, args: readonly string[]): Promise<Session> {
  const transport = new InPlaceStdioTransport({
    command: process.execPath,
    args: [target.bin, ...args],
    env: { ...getDefaultEnvironment(), ...target.env },
    stderr: 'pipe',
    maxBufferSize: BENCH_CLIENT_CAP_BYTES,
  });
  // Drained as it comes: an unread pipe would fill and block a chatty server mid-measurement.
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  // No roots capability: every server then uses what its command line names, as with a plain host.
  const client = new Client(
    { name: 'mcpkit-bench', version: '0.0.0' },
    target.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const t0 = performance.now();
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  const coldStartMs = performance.now() - t0;
  const pid = transport.pid;
  if (pid === null) throw new Error(`${target.label} has no process id after connecting.`);
  return {
    pid,
    coldStartMs,
    // A raw request, not callTool: callTool also validates structured output in the client and, on
    // 2026 connections, looks tools up first; neither is the server's work.
    call: (name, args) =>
      client.request(
        { method: 'tools/call', params: { name, arguments: args } },
        { timeout: CALL_TIMEOUT_MS },
      ),
    listTools: async () =>
      (await client.request({ method: 'tools/list', params: {} }, { timeout: CALL_TIMEOUT_MS })).tools.length,
    stderrTail: () => stderr,
    close: () => client.close(),
  };
}

/** Bare Node's cold start: spawn to the first byte on stdout. The floor for the cold-start scenario. */
export function bareNodeStartMs(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', "process.stdout.write('ready')"], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.once('data', () => resolve(performance.now() - t0));
    child.once('error', reject);
  });
}
