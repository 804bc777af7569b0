/**
 * Checks a page size once, where it is configured, so a typo surfaces at startup rather than as an
 * empty or endless list.
 *
 * @example
 * ```ts
 * assertPageSize(50); // ok
 * assertPageSize(0); // throws RangeError
 * ```
 */
export function assertPageSize(pageSize: number): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`Page size must be a positive integer, got ${pageSize}.`);
  }
}
