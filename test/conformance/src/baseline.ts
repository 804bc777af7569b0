/**
 * Expected failures, in the conformance CLI's own YAML baseline format (`server:` then one
 * `- scenario` or `- scenario:check-id` per line), so the same file is passed to the CLI. Each
 * entry must carry its reason as a trailing `# comment`, which YAML ignores.
 *
 * The CLI judges a `--requirements` run against the baseline for scored scenarios only; `judge`
 * applies the same rules to every scenario that ran, so the unscored ones (extensions, pending)
 * are held to the baseline too.
 */
import { readFile } from 'node:fs/promises';
import type { Check, ScenarioResult } from './results.js';

export interface BaselineEntry {
  scenario: string;
  /** Absent when the whole scenario is expected to fail. */
  checkId?: string;
  reason: string;
}

const ENTRY = /^\s+-\s+([^\s#]+)\s*(?:#\s*(.*))?$/;

export async function readBaseline(path: string): Promise<BaselineEntry[]> {
  const entries: BaselineEntry[] = [];
  let section: string | undefined;
  for (const [i, line] of (await readFile(path, 'utf8')).split('\n').entries()) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const heading = /^(\w+):\s*(#.*)?$/.exec(line);
    if (heading) {
      section = heading[1];
      continue;
    }
    const m = ENTRY.exec(line);
    if (!m || section !== 'server')
      throw new Error(`${path}:${i + 1}: expected "  - scenario[:check]  # reason"`);
    const reason = m[2]?.trim();
    if (!reason) throw new Error(`${path}:${i + 1}: every expected failure needs a "# reason"`);
    const [scenario = '', checkId] = m[1]!.split(/:(.*)/s);
    entries.push(checkId ? { scenario, checkId, reason } : { scenario, reason });
  }
  return entries;
}

export interface Verdict {
  /** Scenarios whose every check passed, and none was expected to fail. */
  passed: string[];
  /** Failing scenarios or checks the baseline names. */
  expected: string[];
  /** Failing scenarios or checks it does not name. */
  unexpected: string[];
  /** Baseline entries that now pass, or name nothing that ran. */
  stale: string[];
}

const SEVERITY: Record<Check['status'], number> = { FAILURE: 4, WARNING: 3, SUCCESS: 2, SKIPPED: 1, INFO: 0 };
const failing = (c: Check) => c.status === 'FAILURE' || c.status === 'WARNING';

/** One verdict per check id, most severe first: ids repeat when a scenario loops. */
function collapse(checks: Check[]): Map<string, Check> {
  const byId = new Map<string, Check>();
  for (const c of checks) {
    const seen = byId.get(c.id);
    if (!seen || SEVERITY[c.status] > SEVERITY[seen.status]) byId.set(c.id, c);
  }
  return byId;
}

/** The CLI's baseline rules (WARNING counts as failing), over every scenario that ran. */
export function judge(results: ScenarioResult[], baseline: BaselineEntry[]): Verdict {
  const verdict: Verdict = { passed: [], expected: [], unexpected: [], stale: [] };
  const wholes = new Set(baseline.filter((e) => !e.checkId).map((e) => e.scenario));
  const perCheck = new Map<string, Set<string>>();
  for (const e of baseline) {
    if (e.checkId) perCheck.set(e.scenario, (perCheck.get(e.scenario) ?? new Set()).add(e.checkId));
  }
  for (const { scenario, checks } of results) {
    const byId = collapse(checks);
    const bad = [...byId.values()].filter(failing);
    if (wholes.has(scenario)) {
      (bad.length > 0 ? verdict.expected : verdict.stale).push(scenario);
      continue;
    }
    const allowed = perCheck.get(scenario) ?? new Set<string>();
    for (const c of bad)
      (allowed.has(c.id) ? verdict.expected : verdict.unexpected).push(`${scenario}:${c.id}`);
    for (const id of allowed) {
      if (byId.get(id)?.status === 'SUCCESS') verdict.stale.push(`${scenario}:${id}`);
    }
    if (bad.length === 0) verdict.passed.push(scenario);
  }
  const ran = new Set(results.map((r) => r.scenario));
  for (const e of baseline) {
    if (!ran.has(e.scenario)) verdict.stale.push(`${e.scenario} (did not run)`);
  }
  return verdict;
}
