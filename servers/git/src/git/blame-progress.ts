/**
 * Progress of a blame as git settles it: `git blame --incremental` prints a record as soon as it
 * knows which commit last changed a range of lines, so the lines counted in the records read so far
 * follow git's real work. (The porcelain form prints nothing until the whole file is settled.) The
 * lines blamed are known beforehand from the file's text, so the count is shown out of them; the
 * last step, one past the lines, is making the answer.
 */
import type { ProgressReporter } from '@mcpkit/core/progress';
import { RANGE } from './parse-blame.js';

/** Longer than any record's header: a row this long is kept only as "not a header". */
const LONGEST_HEADER = 128;

export interface BlameProgress {
  /** Hand to the blame run as its `onOutput`. */
  readonly onOutput: (chunk: Buffer) => void;
  /** Reports the end: the answer is made. */
  finish(): void;
}

/** Reports the start of blaming `lines` lines of `name`, then the lines settled as records arrive. */
export function blameProgress(reporter: ProgressReporter, name: string, lines: number): BlameProgress {
  const total = lines + 1;
  let partial = '';
  let settled = 0;
  reporter.report(0, { total, message: `Blaming ${name}` });
  return {
    onOutput(chunk) {
      // Nobody asked for progress: nothing to count.
      if (!reporter.enabled) return;
      // Headers are ASCII, so reading bytes as latin1 finds them whatever the rest holds; a row cut
      // between two pieces is kept until its newline comes.
      const rows = (partial + chunk.toString('latin1')).split('\n');
      partial = rows.pop() ?? '';
      // A long subject spread over many pieces is not joined again and again.
      if (partial.length > LONGEST_HEADER) partial = 'x';
      const before = settled;
      for (const row of rows) {
        const header = row.length <= LONGEST_HEADER ? RANGE.exec(row) : null;
        if (header) settled += Number(header[3]);
      }
      if (settled === before) return;
      // Never past the lines: the last step is the answer's.
      const value = Math.min(settled, lines);
      reporter.report(value, {
        total,
        message: `${value} of ${lines} ${lines === 1 ? 'line' : 'lines'} blamed`,
      });
    },
    finish() {
      reporter.report(total, { total });
    },
  };
}
