import type { SessionRecord } from './bench.js';
import { median, quantile } from './measure.js';
import type { Goal, ScenarioInfo } from './scenario.js';
import type { Target } from './session.js';

export interface GoalResult {
  text: string;
  /** The median per-round ratio the goal is judged on, where it is a ratio. */
  value?: number;
  /** Undefined when this run could not tell (the peer or floor failed every round). */
  met: boolean | undefined;
  detail: string;
}

/** One scenario × target: medians over the rounds of each session's figures. */
export interface Row {
  scenario: string;
  title: string;
  target: string;
  label: string;
  role: Target['role'];
  sessions: number;
  failed: number;
  errors: string[];
  p50Ms?: number;
  p95Ms?: number;
  callsPerSec1?: number;
  callsPerSecK?: number;
  inflight?: number;
  cpuMsPerOp?: number;
  peakRssBytes?: number;
  answerBytes?: number;
  largestAnswerBytes?: number;
  overClientCap: boolean;
  notes: string[];
  /** Median over rounds of ours ÷ peer (p50) within the round; only on our rows. */
  vsPeer?: number;
  vsFloor?: number;
  goals: GoalResult[];
}

export interface Summary {
  server: string;
  peerLabel: string;
  rows: Row[];
}

const p50Of = (r: SessionRecord): number => median(r.latenciesMs);
const metricOf = (metric: 'p50' | 'peakRss', r: SessionRecord): number | undefined =>
  metric === 'p50' ? p50Of(r) : r.peakRssBytes;

function medianOf(values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return defined.length > 0 ? median(defined) : undefined;
}

/**
 * Ours ÷ theirs computed inside each round (the two ran minutes apart at most, under the same
 * machine load), then the median over rounds: steadier than a ratio of two medians on a noisy box.
 */
function roundRatio(
  ours: readonly SessionRecord[],
  all: readonly SessionRecord[],
  role: 'peer' | 'floor',
  metric: 'p50' | 'peakRss',
): number | undefined {
  const ratios = ours.map((mine) => {
    const theirs = all.find(
      (r) => r.round === mine.round && r.scenario === mine.scenario && r.role === role && r.ok,
    );
    const a = metricOf(metric, mine);
    const b = theirs && metricOf(metric, theirs);
    return mine.ok && a !== undefined && b !== undefined && b > 0 ? a / b : undefined;
  });
  return medianOf(ratios);
}

function judge(goal: Goal, ours: readonly SessionRecord[], all: readonly SessionRecord[]): GoalResult {
  if (goal.metric === 'survives') {
    const failed = ours.filter((r) => !r.ok);
    const over = ours.filter((r) => r.overClientCap);
    const largest = Math.max(0, ...ours.map((r) => r.largestAnswerBytes ?? 0));
    const met = ours.length > 0 && failed.length === 0 && over.length === 0;
    const detail = met
      ? `largest answer ${bytes(largest)}`
      : failed.length > 0
        ? `${failed.length} session(s) failed`
        : `answer ${bytes(largest)} over the 10 MiB client cap`;
    return { text: goal.text, met, detail };
  }
  const value = roundRatio(ours, all, goal.versus, goal.metric);
  if (value === undefined) return { text: goal.text, met: undefined, detail: `no ${goal.versus} to compare` };
  return { text: goal.text, value, met: value <= goal.atMost, detail: `${ratio(value)} (≤ ${goal.atMost}×)` };
}

/** What a row calls its target: the scenario's own floor label on a floor row that has one. */
export const rowLabel = (scenario: ScenarioInfo, target: Target): string =>
  (target.kind === 'floor' && scenario.floorLabel) || target.label;

/** Folds the sessions into one row per scenario and target, ratios and goals included. */
export function summarize(
  server: string,
  scenarios: readonly ScenarioInfo[],
  targets: readonly Target[],
  sessions: readonly SessionRecord[],
): Summary {
  const rows: Row[] = [];
  for (const scenario of scenarios) {
    const all = sessions.filter((s) => s.scenario === scenario.id);
    for (const target of targets) {
      const mine = all.filter((s) => s.target === target.id);
      if (mine.length === 0) continue;
      const ok = mine.filter((s) => s.ok);
      const cold = scenario.kind === 'coldStart';
      const row: Row = {
        scenario: scenario.id,
        title: scenario.title,
        target: target.id,
        label: rowLabel(scenario, target),
        role: target.role,
        sessions: mine.length,
        failed: mine.length - ok.length,
        errors: [...new Set(mine.flatMap((s) => (s.error ? [s.error] : [])))],
        p50Ms: medianOf(ok.map(p50Of)),
        p95Ms: medianOf(ok.map((s) => quantile(s.latenciesMs, 0.95))),
        callsPerSec1: cold
          ? undefined
          : medianOf(ok.map((s) => s.sequential.calls / (s.sequential.elapsedMs / 1000))),
        callsPerSecK: medianOf(ok.map((s) => s.parallel && s.parallel.calls / (s.parallel.elapsedMs / 1000))),
        inflight: scenario.parallel?.inflight,
        cpuMsPerOp: medianOf(ok.map((s) => s.cpuMsPerOp)),
        peakRssBytes: medianOf(ok.map((s) => s.peakRssBytes)),
        answerBytes: medianOf(ok.map((s) => s.answerBytes)),
        largestAnswerBytes: medianOf(ok.map((s) => s.largestAnswerBytes)),
        overClientCap: mine.some((s) => s.overClientCap),
        notes: [...new Set(mine.flatMap((s) => s.notes))],
        goals: [],
      };
      if (target.role === 'ours') {
        row.vsPeer = roundRatio(mine, all, 'peer', 'p50');
        row.vsFloor = roundRatio(mine, all, 'floor', 'p50');
        row.goals = scenario.goals.map((goal) => judge(goal, mine, all));
      }
      rows.push(row);
    }
  }
  const peer = targets.find((t) => t.role === 'peer');
  return { server, peerLabel: peer?.label ?? 'peer', rows };
}

function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

function rate(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

function ratio(value: number | undefined): string {
  return value === undefined ? '—' : `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}×`;
}

export function bytes(value: number | undefined): string {
  if (value === undefined) return '—';
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${(value / 1024 / 1024).toFixed(1)} MiB`;
}

const mark = (met: boolean | undefined): string => (met === undefined ? '?' : met ? '✓' : '✗');

/** Pipes would end a Markdown cell early. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One Markdown table per server, then its goals: what the issue asked for, and whether this run met it. */
export function renderMarkdown(summary: Summary, run: { rounds: number; seed: number }): string {
  const peer = summary.peerLabel.split(' ')[0];
  const out = [
    `### ${summary.server} — medians of ${run.rounds} round(s), seed ${run.seed}`,
    '',
    `| scenario | server | p50 ms | p95 ms | calls/s ×1 | calls/s ×K | CPU ms/op | peak RSS | answer | ours/${peer} | ours/floor | goal | met |`,
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|',
  ];
  for (const row of summary.rows) {
    const failed = row.failed > 0 ? ` ✗ ${row.failed}/${row.sessions} failed` : '';
    const answer = [
      bytes(row.answerBytes),
      ...row.notes,
      ...(row.overClientCap ? ['over 10 MiB client cap'] : []),
    ].join(', ');
    out.push(
      `| ${cell(row.title)} | ${cell(row.label)}${failed} | ${ms(row.p50Ms)} | ${ms(row.p95Ms)} | ${rate(row.callsPerSec1)} | ${
        row.callsPerSecK === undefined ? '—' : `${rate(row.callsPerSecK)} (K=${row.inflight})`
      } | ${ms(row.cpuMsPerOp)} | ${bytes(row.peakRssBytes)} | ${cell(answer)} | ${ratio(row.vsPeer)} | ${ratio(row.vsFloor)} | ${cell(
        row.goals.map((g) => g.text).join('; '),
      )} | ${cell(row.goals.map((g) => `${mark(g.met)} ${g.detail}`).join('; '))} |`,
    );
  }
  const goalRows = summary.rows.filter((r) => r.goals.length > 0);
  if (goalRows.length > 0) {
    out.push('', '| goal | scenario | server | result | met |', '|---|---|---|---|---|');
    for (const row of goalRows) {
      for (const goal of row.goals) {
        out.push(
          `| ${cell(goal.text)} | ${cell(row.title)} | ${cell(row.label)} | ${cell(goal.detail)} | ${mark(goal.met)} |`,
        );
      }
    }
  }
  const errors = summary.rows.flatMap((r) => r.errors.map((e) => `- ${r.title} · ${r.label}: ${e}`));
  if (errors.length > 0) out.push('', 'Failures:', ...errors);
  return `${out.join('\n')}\n`;
}
