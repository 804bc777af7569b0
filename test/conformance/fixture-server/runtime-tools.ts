import { setTimeout as sleep } from 'node:timers/promises';
import { progress } from '@mcpkit/core/progress';
import * as z from 'zod';
import { defineTool, type FixtureCall } from './context.js';

const NO_ARGS = z.object({});
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
const STEP_MS = 50;

/** Three info messages ~50 ms apart: the client must see each one arrive during the call. */
async function logThreeSteps(call: FixtureCall) {
  call.log.info('Tool execution started');
  await sleep(STEP_MS, undefined, { signal: call.signal });
  call.log.info('Tool processing data');
  await sleep(STEP_MS, undefined, { signal: call.signal });
  call.log.info('Tool execution completed');
  return { text: 'Logged three messages.' };
}

/**
 * Logging and progress fixtures. Logging goes through core's per-request log, so the era rules
 * hold: 2025 filters by `logging/setLevel`, 2026 sends only when the request asked for a level.
 */
export const runtimeTools = [
  defineTool({
    name: 'test_tool_with_logging',
    title: 'Logging',
    description: 'Sends three info log messages while it runs.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: (_args, call) => logThreeSteps(call),
  }),
  defineTool({
    name: 'test_logging_tool',
    title: 'Logging (2026 probe)',
    description: 'Sends three info log messages; silent unless the request carries a log level.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: (_args, call) => logThreeSteps(call),
  }),
  defineTool({
    name: 'test_tool_with_progress',
    title: 'Progress',
    description: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    async run(_args, call) {
      // The suite counts every notification; core's default reporter merges reports closer than
      // its throttle, so this one sends each step.
      const reporter = progress(call.ctx, { throttleMs: 0, base: call.flow.round });
      for (const value of [0, 50, 100]) {
        if (value > 0) await sleep(STEP_MS, undefined, { signal: call.signal });
        reporter.report(value, { total: 100, message: `step ${value}` });
      }
      return { text: 'Reported progress 0, 50 and 100 of 100.' };
    },
  }),
  defineTool({
    name: 'test_reconnection',
    title: 'Reconnection',
    description:
      'Closes its own 2025 HTTP answer stream at once, then answers after 1.5 s: the client must resume the stream (Last-Event-ID) to get the result.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    async run(_args, call) {
      // The SDK offers closing the stream only where an event store can replay it (2025 HTTP);
      // elsewhere the call simply waits and answers.
      call.ctx.http?.closeSSE?.();
      await sleep(1500, undefined, { signal: call.signal });
      return { text: 'Reconnection test completed' };
    },
  }),
];
