/**
 * Counting a git run's output as it arrives: markers found whatever the pieces, never counted
 * twice, records made of several markers, a page's size as the ceiling, and a finish above all.
 */
import type { ProgressReporter } from '@mcpkit/core/progress';
import { describe, expect, it } from 'vitest';
import { logRecords, outputProgress, PATCH_FILES } from '../src/git/output-progress.js';

type Report = { value: number; total?: number; message?: string };

/** A reporter that keeps every report (no throttle: what the counting asks for, not what is sent). */
function recorder(enabled = true): ProgressReporter & { reports: Report[] } {
  const reports: Report[] = [];
  return {
    enabled,
    reports,
    report(value, options = {}) {
      reports.push({ value, ...options });
    },
    flush() {},
  };
}

/** Feeds `text` to `onOutput` in pieces of `size` bytes. */
function feed(onOutput: (chunk: Buffer) => void, text: string, size: number): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.byteLength; at += size) onOutput(bytes.subarray(at, at + size));
}

const PATCH = [
  'diff --git a/one b/one',
  '--- a/one',
  '+++ b/one',
  '@@ -1 +1 @@',
  '-diff --git is only text here',
  '+x',
  'diff --cc two',
  '@@@ -1,1 -1,1 +1,1 @@@',
  'diff --git a/three b/three',
  'Binary files differ',
  '',
].join('\n');

describe('outputProgress', () => {
  it('counts the files of a patch the same whatever the pieces it comes in', () => {
    for (const size of [1, 2, 3, 5, 7, 11, 12, 13, 64, 4096]) {
      const reporter = recorder();
      const reading = outputProgress(reporter, PATCH_FILES);
      feed(reading.onOutput, PATCH, size);
      const counts = reporter.reports.map((r) => r.value);
      expect(counts.at(-1), `pieces of ${size}`).toBe(3);
      // Reported only when the count grows.
      expect(counts).toEqual([...new Set(counts)].sort((a, b) => a - b));
      reading.finish();
      expect(reporter.reports.at(-1)).toEqual({ value: 4, total: 4 });
    }
  });

  it('reads a whole record as one commit, shown out of the page and never past it', () => {
    const reporter = recorder();
    const reading = outputProgress(reporter, logRecords(3, ['commit', 'commits']), 2);
    reading.start('Reading the history');
    const record = (n: number) => `sha${n}\0parent\0subject ${n}\0`;
    feed(reading.onOutput, `${record(1)}${record(2)}${record(3)}`, 4);
    expect(reporter.reports[0]).toEqual({ value: 0, total: 3, message: 'Reading the history' });
    expect(reporter.reports.slice(1)).toEqual([
      { value: 1, total: 3, message: '1 commit read' },
      { value: 2, total: 3, message: '2 commits read' },
    ]);
    reading.finish();
    expect(reporter.reports.at(-1)).toEqual({ value: 3, total: 3 });
  });

  it('counts nothing for a reporter nobody listens to', () => {
    const reporter = recorder(false);
    const reading = outputProgress(reporter, PATCH_FILES);
    feed(reading.onOutput, PATCH, 5);
    expect(reporter.reports).toEqual([]);
  });
});
