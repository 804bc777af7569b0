/**
 * The end-to-end matrix for one scenario of one server: over stdio and over Streamable HTTP, in
 * the 2025 and the 2026 era, each time against a freshly started bin and a fresh fixture, and each
 * time ending with a shutdown that must leave no process behind.
 */
import { ChildProcess } from 'node:child_process';
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
 * Waits until no process carries one of `markers`. The run's variable marks the server and what
 * it starts with the environment it inherits; the fixture's directory marks a child given an
 * environment of its own but the fixture in its arguments. No deadline of its own: a process that
 * stays is left to the test's timeout.
 */
async function untilNoneLeft(markers: string[]): Promise<void> {
  for (;;) {
    const found = await Promise.all(markers.map((m) => processesMentioning(m)));
    if (found.every((pids) => pids.length === 0)) return;
    await sleep(50);
  }
}

/**
 * Closes a stdio session while no signal can reach a child: the SDK's fallback SIGTERM and SIGKILL
 * (sent when the child has not exited 2 s after its stdin closed) are recorded and not sent, so
 * the child can only end by seeing its stdin close. Returns the signals the SDK tried to send.
 */
async function closeWithoutSignals(session: TestSession): Promise<string[]> {
  const tried: string[] = [];
  const kill = Object.getOwnPropertyDescriptor(ChildProcess.prototype, 'kill');
  Object.defineProperty(ChildProcess.prototype, 'kill', {
    configurable: true,
    writable: true,
    value(signal?: NodeJS.Signals | number) {
      tried.push(String(signal ?? 'SIGTERM'));
      return false;
    },
  });
  try {
    await session.close();
  } finally {
    if (kill) Object.defineProperty(ChildProcess.prototype, 'kill', kill);
  }
  return tried;
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

          if (http) {
            await session.close();
            session = undefined;
            // SIGTERM: in-flight work cancelled, watchers closed, exit code 0.
            expect(await http.stop()).toBe(0);
          } else {
            // Closing the client ends the child's stdin; the child must exit on that alone. With
            // the SDK's fallback signals held back, a child that ignored its stdin would stay, and
            // the wait below would run into the test's timeout. How long it took is not asserted
            // (a loaded machine may pass the SDK's 2 s; the signals it then tried are not sent).
            await closeWithoutSignals(session);
            session = undefined;
          }
          // Nothing the server started may outlive it.
          await untilNoneLeft([marker, dir]);
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
