/**
 * The end-to-end matrix for one server: its scenario over stdio and over Streamable HTTP, in the
 * 2025 and the 2026 era, each time against a freshly started bin and a fresh fixture, and each
 * time ending with a shutdown that must leave no process behind.
 */
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { scriptedModel, type TestSession, type TestTransport } from '@mcpkit/core/testing';
import { describe, expect, it } from 'vitest';
import { type HttpServer, processesMentioning, startHttp } from './process.js';
import { USER_NODE } from './runtimes.js';
import type { Era, Fixture, ServerSpec, TransportKind } from './scenario.js';
import { Elicitor, openSession } from './session.js';
import { expectTaskRound } from './steps.js';

/** Every bin runs with this page size, so every list of three or more items takes several pages. */
const COMMON_ARGS = ['--page-size', '2'];

const CASES: [TransportKind, Era][] = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
  ['http', 'legacy'],
  ['http', 'modern'],
];

/** Waits until no process mentions `marker`, for up to `ms`; returns what is left. */
async function leftovers(marker: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = await processesMentioning(marker);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(50);
  }
}

export function describeServer(spec: ServerSpec, timeoutMs = 60_000): void {
  describe(`${spec.name} bin, end to end${spec.title ? `: ${spec.title}` : ''}`, () => {
    it.each(CASES)(
      '%s, %s era: one session, then a clean shutdown',
      async (transport, era) => {
        const fixture: Fixture = await spec.fixture();
        const model = scriptedModel(spec.model);
        const elicitor = new Elicitor();
        const args = [...COMMON_ARGS, ...fixture.args];
        let http: HttpServer | undefined;
        let session: TestSession | undefined;
        try {
          let target: TestTransport;
          if (transport === 'http') {
            http = await startHttp(spec.bin, args);
            target = { http: http.url };
          } else {
            target = { stdio: { command: USER_NODE, args: [spec.bin, ...args] } };
          }
          session = await openSession({
            era,
            transport: target,
            roots: fixture.roots ?? [fixture.dir],
            sampling: model.respond,
            elicitor,
          });
          expect(session.client.getProtocolEra()).toBe(era);
          const child = http?.child;
          const serverPid = async () => child?.pid ?? (await processesMentioning(fixture.dir))[0];
          await spec.scenario({
            session,
            era,
            transport,
            fixture,
            model,
            elicitor,
            serverPid,
            ...(http ? { url: http.url } : {}),
          });
          if (spec.task && http && era === 'modern') await expectTaskRound(http.url, spec.task(fixture));

          const closing = Date.now();
          await session.close();
          session = undefined;
          if (http) {
            // SIGTERM: in-flight work cancelled, watchers closed, exit code 0.
            expect(await http.stop()).toBe(0);
          } else {
            // Closing the client ends the child's stdin; the child must exit on that alone, before
            // the SDK's fallback SIGTERM (2 s after closing stdin) would have to step in.
            expect(Date.now() - closing).toBeLessThan(1900);
          }
          expect(await leftovers(fixture.dir, 3000), 'server processes still running').toEqual([]);
        } finally {
          await session?.close().catch(() => {});
          if (http && http.child.exitCode === null) http.child.kill('SIGKILL');
          await fixture.close?.();
          await rm(fixture.base, { recursive: true, force: true });
        }
      },
      timeoutMs,
    );
  });
}
