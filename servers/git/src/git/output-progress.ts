/**
 * Progress of one long git run, counted in its output as it arrives: the commits a log has printed,
 * the files a diff has reached. git prints as it goes, so the count follows the real work, and a
 * client sees it move during the run instead of only at its start and end. The call's reporter
 * merges reports closer together than its throttle, so handing it every piece costs the client
 * nothing on a fast run.
 */
import type { ProgressReporter } from '@mcpkit/core/progress';

/** What one unit of output looks like, and what it is called. */
export interface OutputUnit {
  /** Byte strings that each mark one step; a match may span two pieces of output. */
  markers: readonly string[];
  /** Steps per unit: a log record is one NUL-ended field per format field. */
  steps: number;
  /** The unit in a message, singular and plural: ['commit', 'commits']. */
  names: readonly [string, string];
  /**
   * Counts a marker at the very start of the output too, as if a newline came before it: a diff's
   * first file header opens the output, the next ones follow a newline.
   */
  lineStart?: boolean;
}

/** The records of `git log -z` (commits, reflog entries) whose format joins `fields` fields by `%x00`. */
export function logRecords(fields: number, names: readonly [string, string]): OutputUnit {
  return { markers: ['\0'], steps: fields, names };
}

/** The files of a patch, one `diff --git` (or, for a conflict, `diff --cc`) header each. */
export const PATCH_FILES: OutputUnit = {
  markers: ['\ndiff --git ', '\ndiff --cc '],
  steps: 1,
  names: ['file', 'files'],
  lineStart: true,
};

export interface OutputProgress {
  /** Reports that the run is starting (progress 0) with `message`. */
  start(message: string): void;
  /** Hand to the run as its `onOutput`. */
  readonly onOutput: (chunk: Buffer) => void;
  /** Reports the end: one step past what was read, which is also the total. */
  finish(): void;
}

/**
 * Counts `unit` in a run's output and reports it to `reporter`. With `expected` (a page's size) the
 * count is shown out of it and never passes it, as the run may read one unit more than it keeps.
 */
export function outputProgress(
  reporter: ProgressReporter,
  unit: OutputUnit,
  expected?: number,
): OutputProgress {
  const markers = unit.markers.map((m) => Buffer.from(m, 'utf8'));
  // A marker cut between two pieces is found in the last bytes of one joined to the next.
  const keep = Math.max(...markers.map((m) => m.byteLength)) - 1;
  let tail = unit.lineStart ? Buffer.from('\n') : Buffer.alloc(0);
  let steps = 0;
  let shown = 0;
  const total = expected === undefined ? {} : { total: expected + 1 };
  return {
    start(message) {
      reporter.report(0, { ...total, message });
    },
    onOutput(chunk) {
      // Nobody asked for progress: nothing to count.
      if (!reporter.enabled) return;
      const text = tail.byteLength > 0 ? Buffer.concat([tail, chunk]) : chunk;
      for (const marker of markers) steps += endingAfter(text, marker, text.byteLength - chunk.byteLength);
      tail = Buffer.from(text.subarray(Math.max(0, text.byteLength - keep)));
      const units = Math.floor(steps / unit.steps);
      const value = expected === undefined ? units : Math.min(units, expected);
      if (value <= shown) return;
      shown = value;
      reporter.report(value, { ...total, message: `${value} ${unit.names[value === 1 ? 0 : 1]} read` });
    },
    finish() {
      reporter.report(shown + 1, { total: shown + 1 });
    },
  };
}

/**
 * How many times `marker` occurs in `text` ending after byte `from`: a match is counted with the
 * piece its last byte came in, so one that ended in the kept tail was counted the time before.
 */
function endingAfter(text: Buffer, marker: Buffer, from: number): number {
  let count = 0;
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.byteLength)) {
    if (at + marker.byteLength > from) count++;
  }
  return count;
}
