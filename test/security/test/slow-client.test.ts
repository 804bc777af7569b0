/**
 * Slowloris (seen with SDK 2.4): a client dripping one header byte every 500 ms must be cut off by
 * the server's header timeout (10 s in packages/core/src/runner/http-server.ts, swept every
 * second), not by Node's 60 s default, and the server must keep serving others meanwhile. The
 * servers are attacked side by side: each case mostly waits.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { SERVERS } from '../src/servers.js';

/** The runner's header timeout plus its sweep interval and some slack for a busy 2-core machine. */
const CUT_OFF_WITHIN_MS = 15_000;
const DRIP_EVERY_MS = 500;

/**
 * Opens a request head and drips one byte every {@link DRIP_EVERY_MS} until the server closes the
 * socket; resolves with how long that took and what the server said. Rejects if it never closes.
 */
function slowloris(port: number): Promise<{ elapsed: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    const timer = setInterval(() => {
      if (Date.now() - started > CUT_OFF_WITHIN_MS + 5_000) {
        clearInterval(timer);
        socket.destroy();
        reject(new Error('the server kept the slow connection open'));
        return;
      }
      socket.write('a');
    }, DRIP_EVERY_MS);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ elapsed: Date.now() - started, answer: Buffer.concat(received).toString('latin1') });
    });
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Drip: `);
  });
}

describe.concurrent.each(SERVERS)('$name', (server) => {
  it(
    'cuts off a client sending one header byte every 500 ms within 15 s, serving others meanwhile',
    async () => {
      const fixture = await server.fixture();
      const bin = await startBin(server, fixture.args);
      try {
        const cutOff = slowloris(bin.port);
        // Served while the slow socket is still open.
        await expectGoodClients(bin, server.tool);
        const { elapsed, answer } = await cutOff;
        expect(elapsed).toBeLessThan(CUT_OFF_WITHIN_MS);
        // Cut by the header timeout (Node answers 408 or just closes), not refused for another reason.
        expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer).toBe(true);
        await expectGoodClients(bin, server.tool);
      } finally {
        const code = await bin.stop();
        await fixture.cleanup();
        expect(code).toBe(0);
      }
    },
    CUT_OFF_WITHIN_MS + 15_000,
  );
});
