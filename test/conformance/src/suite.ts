/** One run of the official conformance suite against a server URL, for one protocol revision. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BaselineEntry, judge, readBaseline, type Verdict } from './baseline.js';
import { run } from './process.js';
import { readResults, type ScenarioResult } from './results.js';
import { binOf, node22 } from './runtimes.js';
import type { Era } from './servers.js';

export interface SuiteRun {
  /** The CLI's exit code: 0 when every scored scenario passes or is baselined. */
  exitCode: number | null;
  output: string;
  results: ScenarioResult[];
  baseline: BaselineEntry[];
  verdict: Verdict;
  checks: { passed: number; failed: number };
}

/**
 * Runs `conformance server --requirements <era>` under Node 22 with the baseline, keeps every
 * scenario's checks (`-o`), and judges all of them, scored or not, against the same baseline.
 */
export async function runSuite(url: string, era: Era, baselinePath: string): Promise<SuiteRun> {
  const out = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-'));
  try {
    const cli = binOf('@modelcontextprotocol/conformance', 'conformance');
    const args = [cli, 'server', '--url', url, '--requirements', era, '--expected-failures', baselinePath];
    const { code, stdout, stderr } = await run(node22(), [...args, '-o', out], {
      // The suite's scenarios wait on streams for up to a few seconds each; the whole run is ~10 s.
      timeoutMs: 180_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const results = await readResults(out);
    const baseline = await readBaseline(baselinePath);
    const all = results.flatMap((r) => r.checks);
    return {
      exitCode: code,
      output: `${stdout}\n${stderr}`,
      results,
      baseline,
      verdict: judge(results, baseline),
      checks: {
        passed: all.filter((c) => c.status === 'SUCCESS').length,
        failed: all.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').length,
      },
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
