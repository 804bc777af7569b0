/**
 * A call's signal: it stops the handler when the client cancels or the app closes, with that
 * reason, and once the call has ended the app's own signal, which lives as long as the process,
 * holds nothing of it. Were it kept, a server would grow by a signal per call for ever.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { callSignal } from '../src/server/call-signal.js';
import { InFlight } from '../src/server/in-flight.js';
import { createApp, defineTool } from '../src/server/index.js';
import type { Call } from '../src/server/types.js';
import { connect } from '../src/testing/index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * What a signal holds of the signals that follow it: its abort listeners, and the followers
 * `AbortSignal.any` records on it (Node keeps those under a symbol of its own).
 */
function heldBy(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
  const dependants = key ? (signal as unknown as Record<symbol, Set<unknown> | undefined>)[key] : undefined;
  return getEventListeners(signal, 'abort').length + (dependants?.size ?? 0);
}

/** Told the call of the `wait` handler that has just started. */
let running: ((call: Call<unknown>) => void) | undefined;

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns its input.',
  input: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true },
  run: ({ text }) => ({ text }),
});

const wait = defineTool({
  name: 'wait',
  title: 'Wait',
  description: 'Waits until its call is aborted, then stops with the reason.',
  input: z.object({}),
  annotations: { readOnlyHint: true },
  run: async (_args, call) => {
    running?.(call);
    await new Promise((_resolve, reject) => {
      call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
    });
    return { text: 'not reached' };
  },
});

/** Settles once `signal` has aborted, at once if it already has. */
function aborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

/** Starts `wait` and resolves with its call once the handler runs. */
function started(): Promise<Call<unknown>> {
  return new Promise((resolve) => {
    running = resolve;
  });
}

/** An app with the tools above, and the signal it aborts its calls with when it closes. */
function appWithSignal() {
  const spy = vi.spyOn(InFlight.prototype, 'signal', 'get');
  const app = createApp({ name: 'signals', version: '1.0.0', tools: [echo, wait] });
  return {
    app,
    /** The app's signal, as its calls see it (known once a call has run). */
    signal: (): AbortSignal => {
      const seen = spy.mock.results.at(-1)?.value as AbortSignal | undefined;
      if (!seen) throw new Error('no call has read the app signal yet');
      return seen;
    },
  };
}

describe.each(['legacy', 'modern'] as const)('a call signal, %s era', (era) => {
  it('leaves nothing on the app signal once calls have ended, however many ran', async () => {
    const { app, signal } = appWithSignal();
    const s = await connect(app, { era });
    try {
      for (let i = 0; i < 100; i++) await s.callTool('echo', { text: `n${i}` });
      await Promise.all(Array.from({ length: 100 }, (_, i) => s.callTool('echo', { text: `p${i}` })));
      expect(heldBy(signal())).toBe(0);

      // A running call is held, so closing can stop it; a cancelled one is let go as well.
      const call = started();
      const cancel = new AbortController();
      const result = s.callTool('wait', {}, { signal: cancel.signal }).catch(() => 'cancelled');
      await call;
      expect(heldBy(signal())).toBe(1);
      cancel.abort();
      await result;
      await vi.waitFor(() => expect(heldBy(signal())).toBe(0));
    } finally {
      await s.close();
      await app.close();
    }
  });

  it("stops a running handler when the client cancels, with the request's own reason", async () => {
    const { app } = appWithSignal();
    const s = await connect(app, { era });
    try {
      const call = started();
      const cancel = new AbortController();
      const result = s.callTool('wait', {}, { signal: cancel.signal }).catch((error: unknown) => error);
      const { signal, ctx } = await call;
      expect(signal.aborted).toBe(false);
      cancel.abort();
      await aborted(signal);
      expect(ctx.mcpReq.signal.aborted).toBe(true);
      expect(signal.reason).toBe(ctx.mcpReq.signal.reason);
      expect(await result).toBeInstanceOf(Error);
    } finally {
      await s.close();
      await app.close();
    }
  });

  it('stops a running handler when the app closes, saying the server is shutting down', async () => {
    const { app, signal: appSignal } = appWithSignal();
    const s = await connect(app, { era });
    try {
      const call = started();
      const result = s.callTool('wait', {}).catch((error: unknown) => error);
      const { signal } = await call;
      const closed = app.close();
      await aborted(signal);
      expect(signal.reason).toBe(appSignal().reason);
      expect((signal.reason as Error).message).toBe('The server is shutting down.');
      await closed;
      await result;
    } finally {
      await s.close();
      await app.close();
    }
  });
});

describe('callSignal', () => {
  it('aborts at once, with its reason, when a source has already aborted', () => {
    const live = new AbortController();
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    const own = callSignal([live.signal, gone.signal]);
    expect(own.signal.aborted).toBe(true);
    expect(own.signal.reason).toBe(gone.signal.reason);
    expect(heldBy(live.signal)).toBe(0);
  });

  it('follows the first source to abort, and then lets go of every source', () => {
    const a = new AbortController();
    const b = new AbortController();
    const own = callSignal([a.signal, b.signal]);
    expect(heldBy(a.signal) + heldBy(b.signal)).toBe(2);
    b.abort('closing');
    expect(own.signal.reason).toBe('closing');
    expect(heldBy(a.signal) + heldBy(b.signal)).toBe(0);
    a.abort('late');
    expect(own.signal.reason).toBe('closing');
  });

  it('follows nothing once released', () => {
    const a = new AbortController();
    const own = callSignal([a.signal]);
    own.release();
    own.release();
    expect(heldBy(a.signal)).toBe(0);
    a.abort();
    expect(own.signal.aborted).toBe(false);
  });
});
