/**
 * The end-to-end matrix for one scenario of one server: over stdio and over Streamable HTTP, in
 * the 2025 and the 2026 era, each time against a freshly started bin and a fresh fixture, and each
 * time ending with a shutdown that must leave no process behind.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  connect,
  Elicitor,
  expectTaskRound,
  type HttpBin,
  processesMentioning,
  type Scenario,
  scriptedModel,
  type TestSession,
  type TestTransport,
  userNode,
} from '@mcpkit/core/testing';
import { describe, expect, it } from 'vitest';
import { startHttp } from './process.js';

/** Every bin runs with this page size, so every list of three or more items takes several pages. */
const COMMON_ARGS = ['--page-size', '2'];

/** The variable that marks the processes one test started (children inherit it). */
const MARK = 'MCPKIT_E2E_RUN';

type Era = 'legacy' | 'modern';
const CASES: ['stdio' | 'http', Era][] = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
  ['http', 'legacy'],
  ['http', 'modern'],
];

/**
 * Waits until no process carries one of `markers`, for up to `ms`; returns what is left. The run's
 * variable marks the server and what it starts with the environment it inherits; the fixture's
 * directory marks a child given an environment of its own but the fixture in its arguments.
 */
async function leftovers(markers: string[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await Promise.all(markers.map((m) => processesMentioning(m)));
    const left = [...new Set(found.flat())];
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(50);
  }
}

export interface MatrixRun {
  /** The server folder's name. */
  name: string;
  /** What the run covers: "its test world", "every feature". */
  title: string;
  bin: string;
  scenario: Scenario;
}

export function describeServer(run: MatrixRun, timeoutMs = 60_000): void {
  const { scenario } = run;
  describe(`${run.name} bin, end to end: ${run.title}`, () => {
    it.each(CASES)(
      '%s, %s era: one session, then a clean shutdown',
      async (transport, era) => {
        const dir = await realpath(await mkdtemp(join(tmpdir(), `mcpkit-e2e-${run.name}-`)));
        const marker = `${MARK}=${randomUUID()}`;
        const env = { [MARK]: marker.slice(MARK.length + 1) };
        const fixture = await scenario.setup(dir);
        const model = scriptedModel(scenario.model);
        const elicitor = new Elicitor();
        const args = [...COMMON_ARGS, ...fixture.args];
        let http: HttpBin | undefined;
        let session: TestSession | undefined;
        try {
          let target: TestTransport;
          if (transport === 'http') {
            http = await startHttp(run.bin, args, env);
            target = { http: http.url };
          } else {
            target = { stdio: { command: userNode(), args: [run.bin, ...args], env } };
          }
          session = await connect(undefined, {
            era,
            transport: target,
            roots: fixture.roots ?? [],
            sampling: model.respond,
            elicitation: elicitor.answer,
          });
          expect(session.client.getProtocolEra()).toBe(era);
          const child = http?.child;
          const serverPid = async () => child?.pid ?? (await processesMentioning(marker))[0];
          await scenario.run({
            session,
            era,
            transport,
            dir,
            fixture,
            model,
            elicitor,
            serverPid,
            ...(http ? { url: http.url } : {}),
          });
          if (scenario.task && http && era === 'modern') await expectTaskRound(http.url, scenario.task(dir));

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
          expect(await leftovers([marker, dir], 3000), 'server processes still running').toEqual([]);
        } finally {
          await session?.close().catch(() => {});
          if (http && http.child.exitCode === null) http.child.kill('SIGKILL');
          await fixture.close?.();
          await rm(dir, { recursive: true, force: true });
        }
      },
      timeoutMs,
    );
  });
}
