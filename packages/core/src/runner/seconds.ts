/**
 * Duration flags given in seconds (`--stall-timeout`, `--time-limit`, `--total-timeout`): one rule
 * for reading them, each server keeping its own sentence for a value it refuses.
 */
import { type ParsedCommandLine, UsageError } from './cli.js';

/** The values a duration flag accepts. */
export interface SecondsRange {
  min: number;
  max: number;
  /** Digits allowed after a decimal point; none (whole seconds) by default. */
  decimals?: number;
}

/**
 * The duration `flag` was given, in milliseconds, or `undefined` when it was not given. Digits only,
 * as core reads its own numbers (`Number()` would take `1e3`, `0x10` and a blank); anything else,
 * or a value outside `range`, is a {@link UsageError} whose sentence `refuse` writes from where the
 * value came from (the flag or its variable) and the value as given.
 *
 * @example
 * ```ts
 * declare const cli: ParsedCommandLine; // what parseCommandLine gave the server's create()
 * const ms = secondsOption(cli, 'time-limit', { min: 1, max: 3600 }, (source) =>
 *   `${source} must be a whole number of seconds from 1 to 3600.`,
 * );
 * ```
 */
export function secondsOption(
  cli: ParsedCommandLine,
  flag: string,
  range: SecondsRange,
  refuse: (source: string, given: string) => string,
): number | undefined {
  const given = cli.values[flag];
  if (typeof given !== 'string') return undefined;
  const fraction = range.decimals ? `(\\.\\d{1,${range.decimals}})?` : '';
  const seconds = new RegExp(`^\\d+${fraction}$`).test(given) ? Number(given) : Number.NaN;
  if (seconds >= range.min && seconds <= range.max) return Math.round(seconds * 1000);
  throw new UsageError(refuse(cli.sources[flag] ?? `--${flag}`, given));
}
