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

/** Where the session runs: fixtures and a name no other session of this run uses. */
export interface SessionContext<F> {
  fixtures: F;
  /** Unique per session, for files a scenario creates. */
  tag: string;
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

export interface Scenario<F> {
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
  goals: Goal[];
  /**
   * The operation per implementation (`ours`, `official`, …, matching a target's `impl`), or
   * undefined when that implementation has no such tool.
   */
  server: Record<string, ((session: Session, ctx: SessionContext<F>) => Promise<Op> | Op) | undefined>;
  /** Extra command-line arguments for an implementation's server, before its directory. */
  serverArgs?: Record<string, readonly string[]>;
  /** The same work in plain Node; undefined when there is no MCP-free equivalent (tools/list). */
  floor?: (ctx: SessionContext<F>) => Promise<Op> | Op;
}

/** The text of a tool answer; a tool error becomes a thrown error so the session is marked failed. */
export function answerText(result: CallToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  if (result.isError) throw new Error(`tool error: ${text.slice(0, 300)}`);
  return text;
}

/** The `nextCursor` a paged tool put in its structured answer, if any. */
export function nextCursorOf(result: CallToolResult): string | undefined {
  const cursor = (result.structuredContent as { nextCursor?: unknown } | undefined)?.nextCursor;
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
