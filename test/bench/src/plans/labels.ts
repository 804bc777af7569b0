/**
 * Scenario titles follow the sizes in use, so a tiny smoke run is never titled as a full one.
 * Shared by every plan so that one size prints the same way in every report.
 */

/** 10000 → "10k"; a count that is not a whole thousand prints as it is. */
export const count = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

/**
 * Bytes in steps of 1024: 5 MiB → "5 MiB", 1024 → "1 KiB". `short` prints the same numbers as
 * "MB"/"KB", the way the git and fetch issues name their sizes.
 */
export function size(n: number, units: 'binary' | 'short' = 'binary'): string {
  const [kilo, mega] = units === 'binary' ? ['KiB', 'MiB'] : ['KB', 'MB'];
  return n >= 1024 * 1024 ? `${+(n / 1024 / 1024).toFixed(1)} ${mega}` : `${+(n / 1024).toFixed(1)} ${kilo}`;
}
