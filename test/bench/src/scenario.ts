import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Session } from './session.js';

/** What one operation returned: the answers of every call it took (several when it follows pages). */
export interface OpResult {
  answers: CallToolResult[];
  /** What a floor operation built in place of an answer. */
  text?: string;
}

/** One operation of a scenario; `index` counts from 0 within the session, warm-up included. */
export type Op = (index: number) => Promise<OpResult>;

/**
 * What a suite's scenarios run on: sample data, a repository, a local service. Every server
 * session of those scenarios gets `args` on its command line, after the scenario's own flags.
 */
export interface Fixture {
  /** The bin's arguments for this fixture: directories, a repository, a database, a URL. */
  args: readonly string[];
}

/** Where the session runs: fixtures and a name no other session of this run uses. */
export interface SessionContext<F> {
  fixtures: F;
  /** Unique per session, for files a scenario creates. */
  tag: string;
  /** Runs `close` once the session ends, failed or not: for what an operation's factory started. */
  onEnd(close: () => Promise<void>): void;
}

/**
 * A goal from the server's issue, checked on our rows.
 * - `p50`, `coldStart` and `peakRss` compare ours with the peer or floor of the same round, then
 *   take the median of those per-round ratios; met when it is at most `atMost`.
 * - `survives`: every call of every session answered, and no answer over the default client cap.
 */
export type Goal =
  | { metric: 'p50' | 'peakRss'; versus: 'peer' | 'floor'; atMost: number; text: string }
  | { metric: 'survives'; text: string };

/** A scenario apart from the work it does: what the harness schedules and the report prints. */
export interface ScenarioInfo {
  /** Unique within a plan: rows, `--scenarios` and the results file key on it. */
  id: string;
  title: string;
  kind: 'calls' | 'coldStart';
  /** Unmeasured operations first: module loading and caches warm up as in a long-lived host. */
  warmup: number;
  /** Operations one after another: p50/p95 latency and calls/s with 1 in flight. */
  calls: number;
  /** Then operations with `inflight` outstanding: calls/s with K in flight. */
  parallel?: { inflight: number; calls: number };
  /** Which phase the latency columns come from (the K=4 memory scenario reports its parallel calls). */
  latencyFrom?: 'sequential' | 'parallel';
  /** What the floor row does when it is more than plain Node (default: the floor target's label). */
  floorLabel?: string;
  goals: Goal[];
}

export interface Scenario<F> extends ScenarioInfo {
  /**
   * The operation per implementation (`ours`, `official`, …, matching a target's `impl`), or
   * undefined when that implementation has no such tool.
   */
  server: Record<string, ((session: Session, ctx: SessionContext<F>) => Promise<Op> | Op) | undefined>;
  /** Extra command-line arguments for an implementation's server, before its fixture's. */
  serverArgs?: Record<string, readonly string[]>;
  /**
   * The same work in plain Node (plus, where the scenario's goal says so, the SDK echo round trip
   * of echo-floor.ts); undefined when there is no MCP-free equivalent (tools/list).
   */
  floor?: (ctx: SessionContext<F>) => Promise<Op> | Op;
}

/** What a suite's fixture is built from: the run's output folder and seed. */
export interface FixtureOptions {
  /** The bench's output folder; fixtures are built (or cached) under it. */
  outDir: string;
  seed: number;
}

/** Scenarios that run on one fixture, built once per run before their first session. */
export interface Suite<F extends Fixture> {
  /** Names the fixture in the results file. */
  id: string;
  setup(options: FixtureOptions): Promise<F> | F;
  /** After the last session: stops what `setup` started, removes what it should not keep. */
  teardown?(fixture: F): Promise<void>;
  /** What the results file records about the fixture (default: its arguments). */
  describe?(fixture: F): unknown;
  scenarios: Scenario<F>[];
}

/**
 * A suite with its fixture type sealed in, so one plan holds suites of different fixtures: the
 * harness hands it a function generic in that type, and only the suite knows which type it is.
 */
export interface SealedSuite {
  id: string;
  scenarios: readonly ScenarioInfo[];
  open<R>(use: <F extends Fixture>(suite: Suite<F>) => R): R;
}

export function sealSuite<F extends Fixture>(suite: Suite<F>): SealedSuite {
  return { id: suite.id, scenarios: suite.scenarios, open: (use) => use(suite) };
}

/** A floor result: the text it built or read, whose size is reported like an answer's. */
export const built = (text: string): OpResult => ({ answers: [], text });

/** A tool answer's structured content, or an empty record when it has none. */
export const structured = (answer: CallToolResult): Record<string, unknown> =>
  (answer.structuredContent as Record<string, unknown> | undefined) ?? {};

/** The text of a tool answer; a tool error becomes a thrown error so the session is marked failed. */
export function answerText(result: CallToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  if (result.isError) throw new Error(`tool error: ${text.slice(0, 300)}`);
  return text;
}

/** The `nextCursor` a paged tool put in its structured answer, if any. */
export function nextCursorOf(result: CallToolResult): string | undefined {
  const cursor = structured(result).nextCursor;
  return typeof cursor === 'string' && cursor.length > 0 ? cursor : undefined;
}

/** Calls a tool and follows `nextCursor` until the last page: the whole answer, as the peer gives it. */
export async function allPages(
  session: Session,
  name: string,
  args: Record<string, unknown>,
): Promise<OpResult> {
  const answers: CallToolResult[] = [];
  let cursor: string | undefined;
  do {
    const result = await session.call(name, cursor === undefined ? args : { ...args, cursor });
    answerText(result);
    answers.push(result);
    cursor = nextCursorOf(result);
  } while (cursor !== undefined);
  return { answers };
}

/** One call whose error, if any, fails the session. */
export async function single(
  session: Session,
  name: string,
  args: Record<string, unknown>,
): Promise<OpResult> {
  const result = await session.call(name, args);
  answerText(result);
  return { answers: [result] };
}
