/**
 * Dates a client gives to filter history (`start_timestamp`, `end_timestamp` of git_log). Git reads
 * almost anything as a date and answers nonsense with "now" ("a week ago" and "banana" both mean
 * now), so only forms git reads exactly pass: ISO 8601 dates and times, `@<unix seconds>`, and
 * "<n> <unit>s ago". A bare date is a whole day: from its first second, to its last.
 */
import { UserError } from '@mcpkit/core/errors';
import { checkValue, shown } from './values.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const EPOCH = /^@\d{1,12}$/;
const RELATIVE = /^\d{1,6}[ .](second|minute|hour|day|week|month|year)s?[ .]ago$/i;

/**
 * The value to pass as `--since=`/`--until=`, or a `UserError` naming the accepted forms. `edge`
 * says which end of a bare date's day is meant.
 */
export function checkDate(label: string, value: string, edge: 'start' | 'end'): string {
  const v = checkValue(label, value.trim());
  if (ISO_DATE.test(v)) return `${v} ${edge === 'start' ? '00:00:00' : '23:59:59'}`;
  if (ISO_TIME.test(v) || EPOCH.test(v) || RELATIVE.test(v) || /^(now|yesterday)$/i.test(v)) return v;
  throw new UserError(
    `The ${label} "${shown(value)}" is not a date git reads exactly; give an ISO date such as "2024-05-01" or ` +
      '"2024-05-01T12:00:00Z", "@<unix seconds>", or a relative form such as "2 weeks ago".',
  );
}
