/**
 * Slowloris (seen with SDK 2.4): a client dripping one header byte every 500 ms must be cut off by
 * the server's header timeout (10 s in packages/core/src/runner/http-server.ts, swept every
 * second), not by Node's 60 s default, and the server must keep serving others meanwhile. The
 * servers are attacked side by side: each case mostly waits.
 *
 * No clock is asserted (a loaded machine varies): the test's own timeout, generous for the 10 s
 * header timeout yet below Node's 60 s default, is what a server without it would run into.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { SERVERS } from '../src/servers.js';

/** Three times the runner's 10 s header timeout, and well under Node's 60 s default. */
const TEST_TIMEOUT_MS = 30_000;
const DRIP_EVERY_MS = 500;

/**
 * Opens a request head and drips one byte every {@link DRIP_EVERY_MS} until the server closes the
 * socket; resolves with what the server said. No deadline of its own: `signal` (the test's, fired
 * when it times out) ends the socket.
 */
function slowloris(port: number, signal: AbortSignal): Promise<{ answer: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    const timer = setInterval(() => socket.write('a'), DRIP_EVERY_MS);
    signal.addEventListener('abort', () => socket.destroy(), { once: true });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer: Buffer.concat(received).toString('latin1') });
    });
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Drip: `);
  });
}

describe.concurrent.each(SERVERS)('$name', (server) => {
  it(
    'cuts off a client sending one header byte every 500 ms by its header timeout, serving others meanwhile',
    async ({ signal }) => {
      const fixture = await server.fixture();
      const bin = await startBin(server, fixture.args);
      try {
        const cutOff = slowloris(bin.port, signal);
        // Served while the slow socket is still open.
        await expectGoodClients(bin, server.tool);
        const { answer } = await cutOff;
        expect(signal.aborted).toBe(false);
        // Cut by the header timeout (Node answers 408 or just closes), not refused for another reason.
        expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer).toBe(true);
        await expectGoodClients(bin, server.tool);
      } finally {
        const code = await bin.stop();
        await fixture.cleanup();
        expect(code).toBe(0);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
