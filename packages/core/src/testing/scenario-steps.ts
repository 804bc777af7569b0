/**
 * Steps every-feature scenarios are made of, each doing one feature the way its era requires and
 * asserting what a client would see (with `node:assert`, so they run under any test runner).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CallToolResult, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { listAll } from './list-all.js';
import type { Notification } from './notifications.js';
import type { ScenarioContext, TaskStep } from './scenario.js';
import { httpTaskWire, untilTask } from './task-wire.js';
import { textOf } from './text-of.js';

type ListMethod = Parameters<typeof listAll>[1];

/** Walks a list page by page and checks it took at least `minPages` (run the bin with a small page size). */
export async function listPaged(ctx: ScenarioContext, method: ListMethod, minPages: number) {
  const { items, pages } = await listAll(ctx.session.client, method);
  assert.ok(pages >= minPages, `${method} came in ${pages} pages, fewer than ${minPages}`);
  return items;
}

/** A notification that arrives after this call, not one already in the log. */
function fresh(ctx: ScenarioContext, method: string, match: (n: Notification) => boolean, timeoutMs: number) {
  const seen = new Set(ctx.session.notifications.all);
  return ctx.session.notifications.waitFor(method, (n) => !seen.has(n) && match(n), timeoutMs);
}

/**
 * Subscribes to `uri` by the era's mechanism (2025 `resources/subscribe`, 2026
 * `subscriptions/listen`), changes it from outside the server, and waits for
 * `notifications/resources/updated`. The server starts its watch after acknowledging the
 * subscription, so the change is repeated until the notification comes rather than timed.
 */
export async function expectResourceUpdated(
  ctx: ScenarioContext,
  uri: string,
  change: (n: number) => Promise<void>,
): Promise<void> {
  const { client } = ctx.session;
  let unsubscribe: () => Promise<unknown>;
  if (ctx.era === 'legacy') {
    await client.subscribeResource({ uri });
    unsubscribe = () => client.unsubscribeResource({ uri });
  } else {
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    unsubscribe = () => sub.close();
  }
  const updated = fresh(ctx, 'notifications/resources/updated', (n) => n.params?.uri === uri, 10_000);
  let n = 0;
  const timer = setInterval(() => void change(++n).catch(() => {}), 400);
  try {
    // Together, so a failing change cannot leave the wait to reject unobserved.
    await Promise.all([updated, change(0)]);
  } finally {
    clearInterval(timer);
    await unsubscribe();
  }
}

/** Calls a tool with progress requested; returns the result and the server's own reports. */
export async function callWithProgress(ctx: ScenarioContext, name: string, args: Record<string, unknown>) {
  const reports: { progress: number; total?: number; message?: string }[] = [];
  const result = await ctx.session.callTool(name, args, {
    onprogress: (p) => {
      // A 2026 client adds its own report for each input-required round; only the server's count.
      if (!p.message?.startsWith('Fulfilling input required')) reports.push(p);
    },
  });
  return { result, reports };
}

/**
 * Asks for MCP log messages by the era's rule (2025: `logging/setLevel` for the session; 2026: a
 * log level in the request's `_meta`) and returns the first message the call produced. In 2026 a
 * request without a level must produce none.
 */
export async function expectLogMessage(
  ctx: ScenarioContext,
  name: string,
  args: Record<string, unknown>,
): Promise<Notification> {
  const { client } = ctx.session;
  if (ctx.era === 'modern') {
    const logs = () => ctx.session.notifications.byMethod('notifications/message').length;
    const before = logs();
    await ctx.session.callTool(name, args);
    // A request's logs travel ahead of its response; the pause only covers a late delivery.
    await sleep(200);
    assert.equal(logs(), before, 'a 2026 request without a log level gets no log');
  } else {
    await client.setLoggingLevel('info');
  }
  const logged = fresh(ctx, 'notifications/message', () => true, 5000);
  const call =
    ctx.era === 'modern'
      ? client.callTool({ name, arguments: args, _meta: { [LOG_LEVEL_META_KEY]: 'info' } })
      : ctx.session.callTool(name, args);
  const [log] = await Promise.all([logged, call]);
  return log;
}

/**
 * A tool result that failed with one sentence: no stack trace, and nothing of `secret` (an
 * allowed directory the caller did not name; errors never list them).
 */
export function expectToolError(result: CallToolResult, secret: string): void {
  assert.equal(result.isError, true, 'the call did not fail');
  const text = textOf(result);
  assert.ok(text.length > 0, 'the error has no text');
  assert.ok(!text.includes(secret), `the error shows a path it must not: ${text}`);
  assert.doesNotMatch(text, /\n\s+at /, 'the error carries a stack trace');
}

/**
 * One tool call as a task over Streamable HTTP (2026 era, tasks extension declared): a handle at
 * once, then `tasks/get` until it completes with the result inlined. With `cancelArgs` (a call
 * slow enough to be caught running), a second task is cancelled and must read back as cancelled.
 */
export async function expectTaskRound(url: string, task: TaskStep): Promise<void> {
  const wire = httpTaskWire(url);
  const handle = await wire.request('tools/call', { name: task.tool, arguments: task.args });
  assert.equal(handle.resultType, 'task');
  const done = await untilTask(wire, handle.taskId, 'completed');
  assert.equal(done.status, 'completed');
  assert.ok(textOf(done.result).includes(task.expectText), `the task's result lacks "${task.expectText}"`);
  if (!task.cancelArgs) return;

  const slow = await wire.request('tools/call', { name: task.tool, arguments: task.cancelArgs });
  const ack = await wire.request('tasks/cancel', { taskId: slow.taskId });
  assert.equal(ack.resultType, 'complete');
  const after = await untilTask(wire, slow.taskId, 'cancelled');
  assert.equal(after.status, 'cancelled');
  assert.equal(after.result, undefined);
}
