/**
 * The SDK echo floor: after a floor operation builds its answer in process, one MCP round trip
 * carrying a text block of the same size, through the same SDK client and stdio transport as the
 * bench's server sessions, to the minimal SDK server of echo-server.ts. What a server could not do
 * faster however little work it did: the in-process work plus what the SDK costs to carry it.
 */
import { fileURLToPath } from 'node:url';
import { companionScript } from '@mcpkit/core/progress';
import { answerText, type OpResult, type SessionContext } from './scenario.js';
import { openSession, type SessionSpec } from './session.js';

/** The echo server's one tool; handed to it on its command line so the name lives here only. */
const ECHO_TOOL = 'echo';

/**
 * Round trips made before the first measured one. A fresh SDK server takes 5-15 ms a call for its
 * first ten or so calls while its code is compiled, then under a millisecond for 17 KB: the floor
 * is what the SDK costs once warm, so it is warmed here rather than by the scenario's warm-up,
 * which every row shares.
 */
const WARM_CALLS = 30;
const WARM_BYTES = [64, 16 * 1024, 256 * 1024];

/**
 * The 2025 era: the floor is one row shared by both of our rows, and the peers it is read beside
 * speak 2025 only. Under vitest this resolves to the built `dist/echo-server.js`, as plain Node
 * cannot run the TypeScript source.
 */
const ECHO: SessionSpec = {
  label: 'SDK echo server',
  era: 'legacy',
  bin: fileURLToPath(companionScript(import.meta.url, 'echo-server.js')),
};

/**
 * Sends `text`'s size through the echo server; the floor's result is `text`, with the echo's answer
 * as the one call the operation took.
 */
export type EchoRoundTrip = (text: string) => Promise<OpResult>;

/**
 * Starts the echo server for one floor session (closed when the session ends) and returns the
 * round trip its operations finish with.
 */
export async function echoFloor(ctx: SessionContext<unknown>): Promise<EchoRoundTrip> {
  const session = await openSession(ECHO, [ECHO_TOOL]);
  ctx.onEnd(() => session.close());
  for (let i = 0; i < WARM_CALLS; i++) {
    await session.call(ECHO_TOOL, { bytes: WARM_BYTES[i % WARM_BYTES.length] });
  }
  return async (text) => {
    const bytes = Buffer.byteLength(text, 'utf8');
    const answer = await session.call(ECHO_TOOL, { bytes });
    const echoed = answerText(answer).length;
    // A short echo would make a fast floor for the wrong reason.
    if (echoed !== bytes) throw new Error(`The echo server answered ${echoed} bytes instead of ${bytes}.`);
    return { answers: [answer], text };
  };
}
