import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../src/bench.js';
import { benchServers, buildPlan, scenariosOf } from '../src/plan.js';

// Keeps the harness from rotting: every server found in the workspace, each with its world's
// generic scenarios and the extras its plan module adds, on tiny fixtures for one round, our
// targets and the floor only (no peer). Timings are never asserted here; `npm run bench` is where
// they are read.
const servers = benchServers();

describe('bench harness (smoke)', () => {
  const out = mkdtempSync(join(tmpdir(), 'mcpkit-bench-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('finds at least one server', () => {
    expect(servers.length).toBeGreaterThan(0);
  });

  it.each(servers.map((server) => [server.name, server] as const))(
    '%s: a row per scenario and target, and a JSON file of every session',
    { timeout: 120_000 },
    async (_name, server) => {
      const plan = await buildPlan(server, { sizes: 'tiny', outDir: out, noPeers: true });
      const targets = plan.targets.filter((t) => t.role !== 'peer');
      const result = await runBench(plan, {
        rounds: 1,
        seed: 7,
        outDir: out,
        callScale: 0.02,
        targets: targets.map((t) => t.id),
      });

      const failures = result.sessions
        .filter((s) => !s.ok)
        .map((s) => `${s.scenario}/${s.target}: ${s.error}`);
      expect(failures).toEqual([]);

      const scenarios = scenariosOf(plan);
      expect(scenarios.map((s) => s.id)).toEqual(
        expect.arrayContaining(['cold-start', 'tools-list', 'world-reads']),
      );
      for (const scenario of scenarios) {
        for (const target of targets.filter((t) => t.role === 'ours')) {
          const row = result.summary.rows.find((r) => r.scenario === scenario.id && r.target === target.id);
          expect(row, `${scenario.id}/${target.id}`).toBeDefined();
          expect(row?.p50Ms, `${scenario.id}/${target.id}`).toBeGreaterThan(0);
          expect(result.markdown).toContain(`| ${scenario.title} | ${row?.label} |`);
          // Goals are judged on our rows even without a peer (then as unknown, never as met).
          expect(row?.goals.length, scenario.id).toBe(scenario.goals.length);
        }
      }
      const floor = result.summary.rows.find((r) => r.scenario === 'cold-start' && r.target === 'floor');
      expect(floor?.p50Ms).toBeGreaterThan(0);
      // A floor that does more than plain Node (the SDK echo round trip) says so in its row.
      for (const scenario of scenarios.filter((s) => s.floorLabel)) {
        const row = result.summary.rows.find((r) => r.scenario === scenario.id && r.target === 'floor');
        expect(row?.p50Ms, `${scenario.id}/floor`).toBeGreaterThan(0);
        expect(result.markdown).toContain(`| ${scenario.title} | ${scenario.floorLabel} |`);
      }

      const json = JSON.parse(readFileSync(result.jsonPath, 'utf8')) as {
        server: string;
        sessions: unknown[];
        summary: unknown;
      };
      expect(json.server).toBe(server.name);
      expect(json.sessions).toHaveLength(result.sessions.length);
      expect(json.summary).toEqual(result.summary);
    },
  );
});
