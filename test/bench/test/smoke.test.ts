import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../src/bench.js';
import { TINY_SIZES } from '../src/fixtures.js';
import { filesystemScenarios } from '../src/scenarios/filesystem.js';

// Keeps the harness from rotting: tiny fixtures, one round, our server and the floor only.
// Timings are never asserted here; `npm run bench` is where they are read.
describe('bench harness (smoke)', () => {
  const out = mkdtempSync(join(tmpdir(), 'mcpkit-bench-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('produces a row per scenario and a JSON file of every session', { timeout: 60_000 }, async () => {
    const result = await runBench({
      server: 'filesystem',
      rounds: 1,
      seed: 7,
      sizes: TINY_SIZES,
      outDir: out,
      callScale: 0.02,
      targets: ['ours', 'floor'],
    });

    const failures = result.sessions.filter((s) => !s.ok).map((s) => `${s.scenario}/${s.target}: ${s.error}`);
    expect(failures).toEqual([]);

    for (const scenario of filesystemScenarios(TINY_SIZES)) {
      const ours = result.summary.rows.find((r) => r.scenario === scenario.id && r.target === 'ours');
      expect(ours, scenario.id).toBeDefined();
      expect(ours?.p50Ms, scenario.id).toBeGreaterThan(0);
      expect(result.markdown).toContain(`| ${scenario.title} | ${ours?.label} |`);
      // Goals are judged on our rows even without a peer (then as unknown, never as met).
      expect(ours?.goals.length, scenario.id).toBe(scenario.goals.length);
    }

    const json = JSON.parse(readFileSync(result.jsonPath, 'utf8')) as {
      sessions: unknown[];
      summary: unknown;
    };
    expect(json.sessions).toHaveLength(result.sessions.length);
    expect(json.summary).toEqual(result.summary);
  });
});
