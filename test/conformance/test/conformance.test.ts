import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorldInstance } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBaseline } from '../src/expected.js';
import { type RunningServer, startHttp } from '../src/process.js';
import { ERAS, SERVERS } from '../src/servers.js';
import { runSuite } from '../src/suite.js';

interface Row {
  server: string;
  era: string;
  'scenarios passed': number;
  'scenarios failed': number;
  'scenarios expected': number;
  'checks ok': number;
  'checks failing': number;
}
const totals: Row[] = [];

afterAll(() => {
  // The per-server totals the suite reports, one row per server and revision.
  console.log(
    'Conformance totals (expected: failing, and listed in expected-failures; checks failing counts both kinds):',
  );
  console.table(totals);
});

describe.each(SERVERS)('conformance: $name', (server) => {
  let dir: string;
  let http: RunningServer;
  let world: WorldInstance | undefined;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), `mcpkit-conformance-${server.name}-`)));
    world = await server.world.setup(dir);
    http = await startHttp(server.bin, world.args);
  });
  afterAll(async () => {
    expect(await http?.stop()).toBe(0);
    await world?.close?.();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(ERAS)(
    'passes the %s requirements, failing only what its baseline lists',
    async (era) => {
      const baseline = join(dir, `baseline-${era}.yaml`);
      await writeBaseline(server, era, baseline);
      const suite = await runSuite(http.url, era, baseline);
      const { verdict } = suite;
      const failedScenarios = new Set(verdict.unexpected.map((f) => f.split(':')[0]));
      const expectedScenarios = new Set(verdict.expected.map((f) => f.split(':')[0]));
      totals.push({
        server: server.name,
        era,
        'scenarios passed': verdict.passed.length,
        'scenarios failed': failedScenarios.size,
        'scenarios expected': [...expectedScenarios].filter((s) => !failedScenarios.has(s)).length,
        'checks ok': suite.checks.passed,
        'checks failing': suite.checks.failed,
      });
      expect(suite.results.length, suite.output).toBeGreaterThan(20);
      expect(verdict.unexpected, 'failures the baseline does not list').toEqual([]);
      expect(verdict.stale, 'baseline entries that now pass: remove them').toEqual([]);
      // The CLI applies the same baseline to the scored scenarios; it must agree.
      expect(suite.exitCode, suite.output.slice(-4000)).toBe(0);
    },
    180_000,
  );
});
