import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@mcpkit/core/errors';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type FixtureSizes, type FsFixtures, filesystemFixtures } from './fixtures.js';
import { median, peakRssOf, RssSampler, runParallel, runSequential, treeCpuMs } from './measure.js';
import { renderMarkdown, type Summary, summarize } from './report.js';
import type { Op, OpResult, Scenario, SessionContext } from './scenario.js';
import { filesystemScenarios } from './scenarios/filesystem.js';
import {
  bareNodeStartMs,
  binOf,
  DEFAULT_CLIENT_CAP_BYTES,
  openSession,
  type ServerTarget,
  type Session,
  type Target,
} from './session.js';

export interface BenchOptions {
  server: 'filesystem';
  rounds: number;
  seed: number;
  sizes: FixtureSizes;
  /** Fixtures are cached here and results written here. */
  outDir: string;
  /** Multiplies every scenario's call counts (at least one call stays); the smoke test shrinks them. */
  callScale?: number;
  /** Only these target ids (default: all). */
  targets?: string[];
  /** Only these scenario ids (default: all). */
  scenarios?: string[];
  /** Progress lines; the CLI sends them to stderr so stdout holds only the tables. */
  log?: (line: string) => void;
}

/** Everything measured in one session: one fresh server process (or the floor) for one scenario. */
export interface SessionRecord {
  server: string;
  round: number;
  scenario: string;
  target: string;
  role: Target['role'];
  ok: boolean;
  error?: string;
  /** Spawn to first answer of this session's process. */
  coldStartMs?: number;
  /** Latencies of the phase the report uses (sequential, or parallel where the scenario says). */
  latenciesMs: number[];
  sequential: { calls: number; elapsedMs: number; latenciesMs: number[] };
  parallel?: { inflight: number; calls: number; elapsedMs: number; latenciesMs: number[] };
  /** Tool calls one operation took (more than one when it follows pages). */
  callsPerOp?: number;
  /** Server CPU (user + system) per operation, in ms; for the floor, the bench process's own. */
  cpuMsPerOp?: number;
  /** Peak resident memory of the server's process tree. */
  peakRssBytes?: number;
  /** Bytes of one operation's answers as JSON (all pages), median over the sequential calls. */
  answerBytes?: number;
  /** The largest single answer: over the default client cap, a stock SDK client drops the connection. */
  largestAnswerBytes?: number;
  overClientCap: boolean;
  /** What the answers said about themselves: truncated, entries shown, timed out. */
  notes: string[];
}

export interface BenchResult {
  sessions: SessionRecord[];
  summary: Summary;
  markdown: string;
  jsonPath: string;
}

const require = createRequire(import.meta.url);

function versionOf(pkg: string): string {
  const manifest = JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Our server in both eras (the 2026 rows are extra: the official speaks 2025 only), the official, the floor. */
export function filesystemTargets(): Target[] {
  const ours = binOf('@mcpkit/server-filesystem', 'mcpkit-filesystem');
  const official = binOf('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem');
  return [
    {
      kind: 'server',
      id: 'ours',
      label: 'mcpkit 2025',
      role: 'ours',
      era: 'legacy',
      impl: 'ours',
      bin: ours,
    },
    {
      kind: 'server',
      id: 'ours-2026',
      label: 'mcpkit 2026',
      role: 'ours',
      era: 'modern',
      impl: 'ours',
      bin: ours,
    },
    {
      kind: 'server',
      id: 'official',
      label: `official ${versionOf('@modelcontextprotocol/server-filesystem')}`,
      role: 'peer',
      era: 'legacy',
      impl: 'official',
      bin: official,
    },
    { kind: 'floor', id: 'floor', label: 'floor (plain Node)', role: 'floor' },
  ];
}

const jsonBytes = (answer: CallToolResult): number => Buffer.byteLength(JSON.stringify(answer), 'utf8');

function notesOf(answers: readonly CallToolResult[]): string[] {
  const notes = new Set<string>();
  for (const answer of answers) {
    const s = answer.structuredContent as Record<string, unknown> | undefined;
    if (s?.truncated === true)
      notes.add(`truncated${typeof s.entries === 'number' ? ` at ${s.entries} entries` : ''}`);
    if (s?.timedOut === true) notes.add('timed out');
  }
  if (answers.length > 1) notes.add(`${answers.length} pages`);
  return [...notes];
}

const scaled = (n: number, scale: number): number => (n === 0 ? 0 : Math.max(1, Math.round(n * scale)));

/** Runs the warm-up, the sequential phase and the parallel phase of a scenario on one operation. */
async function measureOps<F>(
  scenario: Scenario<F>,
  op: Op,
  record: SessionRecord,
  cpuNow: () => number,
  scale: number,
): Promise<void> {
  let index = 0;
  const next = () => op(index++);
  for (let i = 0; i < scenario.warmup; i++) await next();
  const calls = scaled(scenario.calls, scale);
  const parallel = scenario.parallel && {
    inflight: scenario.parallel.inflight,
    calls: Math.max(scenario.parallel.inflight, scaled(scenario.parallel.calls, scale)),
  };
  const sizes: number[] = [];
  let largest = 0;
  const notes = new Set<string>();
  const cpu0 = cpuNow();
  const sequential = await runSequential(calls, next, (result: OpResult) => {
    record.callsPerOp = Math.max(record.callsPerOp ?? 0, result.answers.length);
    if (result.text !== undefined) sizes.push(Buffer.byteLength(result.text, 'utf8'));
    else if (result.answers.length > 0) {
      const each = result.answers.map(jsonBytes);
      sizes.push(each.reduce((a, b) => a + b, 0));
      largest = Math.max(largest, ...each);
    }
    for (const note of notesOf(result.answers)) notes.add(note);
  });
  record.sequential = { calls, elapsedMs: sequential.elapsedMs, latenciesMs: sequential.latencies };
  if (parallel) {
    const run = await runParallel(parallel.calls, parallel.inflight, next);
    record.parallel = { ...parallel, elapsedMs: run.elapsedMs, latenciesMs: run.latencies };
  }
  record.cpuMsPerOp = (cpuNow() - cpu0) / (calls + (parallel?.calls ?? 0));
  record.latenciesMs =
    scenario.latencyFrom === 'parallel' && record.parallel
      ? record.parallel.latenciesMs
      : sequential.latencies;
  if (sizes.length > 0) record.answerBytes = median(sizes);
  if (largest > 0) record.largestAnswerBytes = largest;
  record.overClientCap = largest > DEFAULT_CLIENT_CAP_BYTES;
  record.notes = [...notes];
}

async function serverSession<F extends { dir: string }>(
  scenario: Scenario<F>,
  target: ServerTarget,
  ctx: SessionContext<F>,
  record: SessionRecord,
  scale: number,
): Promise<void> {
  const factory = scenario.server[target.impl];
  if (!factory) return;
  if (scenario.kind === 'coldStart') {
    const starts: number[] = [];
    const cpu: number[] = [];
    let peak = 0;
    for (let i = 0; i < scaled(scenario.calls, scale); i++) {
      const session = await openSession(target, ctx.fixtures.dir);
      starts.push(session.coldStartMs);
      // Read before closing: once the process is gone, so are its counters.
      cpu.push(treeCpuMs(session.pid));
      peak = Math.max(peak, peakRssOf(session.pid));
      await session.close();
    }
    record.latenciesMs = starts;
    record.sequential = {
      calls: starts.length,
      elapsedMs: starts.reduce((a, b) => a + b, 0),
      latenciesMs: starts,
    };
    record.cpuMsPerOp = median(cpu);
    record.peakRssBytes = peak;
    return;
  }
  let session: Session | undefined;
  let sampler: RssSampler | undefined;
  try {
    session = await openSession(target, ctx.fixtures.dir, scenario.serverArgs?.[target.impl]);
    record.coldStartMs = session.coldStartMs;
    const pid = session.pid;
    sampler = new RssSampler(pid);
    const op = await factory(session, ctx);
    await measureOps(scenario, op, record, () => treeCpuMs(pid), scale);
  } catch (error) {
    const tail = session?.stderrTail().trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${errorMessage(error)}${tail ? ` (server stderr: ${tail})` : ''}`);
  } finally {
    if (sampler) record.peakRssBytes = sampler.stop();
    await session?.close().catch(() => undefined);
  }
}

async function floorSession<F>(
  scenario: Scenario<F>,
  ctx: SessionContext<F>,
  record: SessionRecord,
  scale: number,
): Promise<void> {
  if (scenario.kind === 'coldStart') {
    const starts: number[] = [];
    for (let i = 0; i < scaled(scenario.calls, scale); i++) starts.push(await bareNodeStartMs());
    record.latenciesMs = starts;
    record.sequential = {
      calls: starts.length,
      elapsedMs: starts.reduce((a, b) => a + b, 0),
      latenciesMs: starts,
    };
    return;
  }
  if (!scenario.floor) return;
  const op = await scenario.floor(ctx);
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  await measureOps(scenario, op, record, cpuNow, scale);
}

/** Whether a target takes part in a scenario at all (the official has no content search, the floor no tools/list). */
function takesPart<F>(scenario: Scenario<F>, target: Target): boolean {
  if (target.kind === 'floor') return scenario.kind === 'coldStart' || scenario.floor !== undefined;
  return scenario.server[target.impl] !== undefined;
}

/**
 * Runs every scenario for every target, `rounds` times. Within a round the targets run one after
 * another with the order rotated each round, so drift on a noisy machine (thermal, other load)
 * spreads over all of them instead of favouring whoever always goes first.
 */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const scale = options.callScale ?? 1;
  mkdirSync(options.outDir, { recursive: true });
  const started = new Date();
  log(`fixtures (seed ${options.seed})…`);
  const fixtures: FsFixtures = filesystemFixtures(
    join(options.outDir, 'fixtures'),
    options.seed,
    options.sizes,
  );
  const targets = filesystemTargets().filter((t) => !options.targets || options.targets.includes(t.id));
  const scenarios = filesystemScenarios(options.sizes).filter(
    (s) => !options.scenarios || options.scenarios.includes(s.id),
  );
  const sessions: SessionRecord[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const shift = round % targets.length;
    const order = [...targets.slice(shift), ...targets.slice(0, shift)];
    for (const scenario of scenarios) {
      for (const target of order) {
        if (!takesPart(scenario, target)) continue;
        const record: SessionRecord = {
          server: options.server,
          round,
          scenario: scenario.id,
          target: target.id,
          role: target.role,
          ok: true,
          latenciesMs: [],
          sequential: { calls: 0, elapsedMs: 0, latenciesMs: [] },
          overClientCap: false,
          notes: [],
        };
        const ctx = { fixtures, tag: `r${round}-${scenario.id}-${target.id}` };
        try {
          if (target.kind === 'floor') await floorSession(scenario, ctx, record, scale);
          else await serverSession(scenario, target, ctx, record, scale);
        } catch (error) {
          record.ok = false;
          record.error = errorMessage(error);
        }
        sessions.push(record);
        const p50 = median(record.latenciesMs);
        log(
          `round ${round + 1}/${options.rounds} ${scenario.title} · ${target.label}: ${
            record.ok ? `p50 ${p50.toFixed(1)} ms` : `FAILED ${record.error}`
          }`,
        );
      }
    }
  }
  const summary = summarize(options.server, scenarios, targets, sessions);
  const markdown = renderMarkdown(summary, { rounds: options.rounds, seed: options.seed });
  const jsonPath = join(options.outDir, `results-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    jsonPath,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model },
        options: { ...options, log: undefined },
        fixtures: { dir: fixtures.dir, sizes: fixtures.sizes, counts: fixtures.counts },
        targets,
        summary,
        sessions,
      },
      null,
      2,
    )}\n`,
  );
  return { sessions, summary, markdown, jsonPath };
}
