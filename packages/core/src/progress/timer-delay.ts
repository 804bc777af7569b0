/**
 * @internal What a Node timer can wait: the deadlines core sets (stall guard, watch start) are
 * checked against it where they are configured.
 */

/** The longest delay a Node timer keeps: a longer one fires after a millisecond instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** True for a delay a timer really waits: above 0 and at most {@link MAX_TIMER_MS}. */
export function isTimerDelay(ms: number): boolean {
  return ms > 0 && ms <= MAX_TIMER_MS;
}
