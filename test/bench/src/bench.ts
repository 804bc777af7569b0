import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@mcpkit/core/errors';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { median, peakRssOf, RssSampler, runParallel, runSequential, treeCpuMs } from './measure.js';
import { type Plan, scenariosOf } from './plan.js';
import { renderMarkdown, rowLabel, type Summary, summarize } from './report.js';
import type { Fixture, Op, OpResult, Scenario, ScenarioInfo, SessionContext, Suite } from './scenario.js';
import {
  bareNodeStartMs,
  DEFAULT_CLIENT_CAP_BYTES,
  openSession,
  type ServerTarget,
  type Session,
  type Target,
} from './session.js';

export interface BenchOptions {
  rounds: number;
  seed: number;
  /** Fixtures are built (and cached) here and results written here. */
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
  /**
   * Server CPU (user + system) per operation, in ms; for the floor, the bench process's own (a
   * helper it calls, such as the SDK echo server, is not counted).
   */
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

/** A server's arguments for a session: the scenario's own flags for its implementation, then the fixture's. */
const argsOf = <F extends Fixture>(scenario: Scenario<F>, target: ServerTarget, fixture: F): string[] => [
  ...(scenario.serverArgs?.[target.impl] ?? []),
  ...fixture.args,
];

async function serverSession<F extends Fixture>(
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
      const session = await openSession(target, argsOf(scenario, target, ctx.fixtures));
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
    session = await openSession(target, argsOf(scenario, target, ctx.fixtures));
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

/** Whether a target takes part in a scenario at all (a peer may lack a tool, the floor has no tools/list). */
function takesPart<F>(scenario: Scenario<F>, target: Target): boolean {
  if (target.kind === 'floor') return scenario.kind === 'coldStart' || scenario.floor !== undefined;
  return scenario.server[target.impl] !== undefined;
}

interface Run {
  server: string;
  targets: readonly Target[];
  options: BenchOptions;
  wanted: (scenario: ScenarioInfo) => boolean;
  log: (line: string) => void;
  sessions: SessionRecord[];
}

/**
 * Builds a suite's fixture, runs its scenarios for every target `rounds` times, then tears the
 * fixture down; returns what the results file records about the fixture. Within a round the
 * targets run one after another with the order rotated each round, so drift on a noisy machine
 * (thermal, other load) spreads over all of them instead of favouring whoever always goes first.
 */
async function runSuite<F extends Fixture>(suite: Suite<F>, run: Run): Promise<unknown> {
  const { options, targets, log } = run;
  const scale = options.callScale ?? 1;
  log(`${run.server}: ${suite.id} fixture (seed ${options.seed})…`);
  const fixtures = await suite.setup({ outDir: options.outDir, seed: options.seed });
  try {
    const scenarios = suite.scenarios.filter(run.wanted);
    for (let round = 0; round < options.rounds; round++) {
      const shift = round % targets.length;
      const order = [...targets.slice(shift), ...targets.slice(0, shift)];
      for (const scenario of scenarios) {
        for (const target of order) {
          if (!takesPart(scenario, target)) continue;
          const record: SessionRecord = {
            server: run.server,
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
          const closers: (() => Promise<void>)[] = [];
          const ctx: SessionContext<F> = {
            fixtures,
            tag: `r${round}-${scenario.id}-${target.id}`,
            onEnd: (close) => void closers.push(close),
          };
          try {
            if (target.kind === 'floor') await floorSession(scenario, ctx, record, scale);
            else await serverSession(scenario, target, ctx, record, scale);
          } catch (error) {
            record.ok = false;
            record.error = errorMessage(error);
          } finally {
            // Last started, first closed. As with a server's close, a failure here is not a measurement's.
            for (const close of closers.reverse())
              await Promise.resolve()
                .then(close)
                .catch(() => undefined);
          }
          run.sessions.push(record);
          const p50 = median(record.latenciesMs);
          log(
            `round ${round + 1}/${options.rounds} ${scenario.title} · ${rowLabel(scenario, target)}: ${
              record.ok ? `p50 ${p50.toFixed(1)} ms` : `FAILED ${record.error}`
            }`,
          );
        }
      }
    }
    return suite.describe ? suite.describe(fixtures) : { args: fixtures.args };
  } finally {
    await suite.teardown?.(fixtures);
  }
}

/**
 * Runs a plan: each suite's scenarios (those `options.scenarios` keeps) for each target (those
 * `options.targets` keeps), then writes every session to a results file in `options.outDir`. A
 * suite none of whose scenarios is kept is skipped, fixture and all.
 */
export async function runBench(plan: Plan, options: BenchOptions): Promise<BenchResult> {
  mkdirSync(options.outDir, { recursive: true });
  const started = new Date();
  const run: Run = {
    server: plan.server,
    targets: plan.targets.filter((t) => !options.targets || options.targets.includes(t.id)),
    options,
    wanted: (s) => !options.scenarios || options.scenarios.includes(s.id),
    log: options.log ?? (() => undefined),
    sessions: [],
  };
  const fixtures: Record<string, unknown> = {};
  for (const suite of plan.suites) {
    if (suite.scenarios.some(run.wanted)) fixtures[suite.id] = await suite.open((s) => runSuite(s, run));
  }
  const { sessions, targets } = run;
  const scenarios = scenariosOf(plan).filter(run.wanted);
  const summary = summarize(plan.server, scenarios, targets, sessions);
  const markdown = renderMarkdown(summary, { rounds: options.rounds, seed: options.seed });
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const jsonPath = join(options.outDir, `results-${plan.server}-${stamp}.json`);
  writeFileSync(
    jsonPath,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model },
        server: plan.server,
        options: { ...options, log: undefined },
        fixtures,
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
