/**
 * Default cap on one tool result or resource read: 1 MiB.
 *
 * Why this number: the SDK's stdio reader drops the connection on any message over 10 MiB, and a
 * result's text can grow on the wire (JSON escaping, `structuredContent` beside its text copy,
 * base64 for binary), so the cap must sit well below that. And every byte returned lands in the
 * model's context: 1 MiB is already far more than a model can use in one go, so anything bigger
 * is better served in pages the caller asks for.
 */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

/** Highest configurable cap: leaves headroom for a 2x text copy under the 10 MiB stdio limit. */
export const MAX_OUTPUT_LIMIT_BYTES = 4 * 1024 * 1024;

/** Lowest configurable cap: below this the truncation notice itself would not fit. */
export const MIN_OUTPUT_LIMIT_BYTES = 1024;

/**
 * Environment variable that sets the cap when no explicit option is given: the `--output-limit`
 * flag's variable, named like every other flag's.
 */
export const OUTPUT_LIMIT_ENV = 'MCPKIT_OUTPUT_LIMIT';

/** The variable's older name, still read (after {@link OUTPUT_LIMIT_ENV}) so existing setups keep working. */
export const OUTPUT_LIMIT_ENV_ALIAS = 'MCPKIT_MAX_OUTPUT_BYTES';

const SIZE = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib)?$/i;
const UNIT: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1048576,
  mb: 1048576,
  mib: 1048576,
};

/**
 * The one place the output limit's variables are read: {@link OUTPUT_LIMIT_ENV}, else its older
 * name {@link OUTPUT_LIMIT_ENV_ALIAS}. A blank value counts as unset (bundles pass '' for a setting
 * left empty). Returns the raw text and the variable it came from, for error messages.
 */
export function outputLimitFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): { name: string; value: string } | undefined {
  for (const name of [OUTPUT_LIMIT_ENV, OUTPUT_LIMIT_ENV_ALIAS]) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return { name, value };
  }
  return undefined;
}

/**
 * Picks the output cap: an explicit option (CLI flag or factory option) wins, then
 * `MCPKIT_OUTPUT_LIMIT` (or its older name `MCPKIT_MAX_OUTPUT_BYTES`), then
 * {@link DEFAULT_OUTPUT_LIMIT_BYTES}. Values are bytes, or carry a binary unit (`512k`, `2MiB`;
 * `kb`/`mb` are read as KiB/MiB). An unusable value throws a RangeError at startup instead of
 * silently running with another limit.
 *
 * @example
 * ```ts
 * resolveOutputLimit(undefined, { MCPKIT_OUTPUT_LIMIT: '512k' }); // 524288
 * resolveOutputLimit('2MiB'); // 2097152
 * ```
 */
export function resolveOutputLimit(
  option?: number | string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): number {
  if (option !== undefined && option !== '') return parseOutputLimit(option, 'The output limit option');
  const fromEnv = outputLimitFromEnv(env);
  if (fromEnv) return parseOutputLimit(fromEnv.value, fromEnv.name);
  return DEFAULT_OUTPUT_LIMIT_BYTES;
}

/**
 * Reads one output limit: bytes, or a number with a binary unit. `source` names where the value
 * came from (`--output-limit`, a variable) and starts the one-sentence RangeError it throws.
 */
export function parseOutputLimit(value: number | string, source: string): number {
  let bytes = Number.NaN;
  if (typeof value === 'number') {
    bytes = value;
  } else {
    const match = SIZE.exec(value.trim());
    const unit = UNIT[(match?.[2] ?? 'b').toLowerCase()];
    if (match?.[1] !== undefined && unit !== undefined) bytes = Math.floor(Number(match[1]) * unit);
  }
  if (!Number.isSafeInteger(bytes) || bytes < MIN_OUTPUT_LIMIT_BYTES || bytes > MAX_OUTPUT_LIMIT_BYTES) {
    throw new RangeError(
      `${source} must be a size from ${MIN_OUTPUT_LIMIT_BYTES} to ${MAX_OUTPUT_LIMIT_BYTES} bytes, ` +
        'such as 65536, 512k or 2m.',
    );
  }
  return bytes;
}
