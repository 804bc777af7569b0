/** The protocol's ceiling on values in one `completion/complete` answer. */
export const MAX_COMPLETION_VALUES = 100;

export interface RankOptions {
  /** How many values to return, at most {@link MAX_COMPLETION_VALUES}. */
  max?: number;
}

/** The shape of a `completion/complete` result's `completion` field. */
export interface RankedCompletions {
  values: string[];
  /** How many distinct candidates matched, before the cap. */
  total: number;
  hasMore: boolean;
}

/**
 * Orders completion candidates by how well they match what the user typed so far, drops
 * duplicates and caps the list.
 *
 * Order: exact-case prefix matches, then case-insensitive prefix matches, then case-insensitive
 * substring matches; within each group the candidates keep their original order, so a source
 * that yields "most relevant first" (recent branches, open files) stays that way. An empty value
 * matches everything.
 *
 * @example
 * ```ts
 * rankCompletions(['main', 'Maintenance', 'domain', 'dev'], 'main');
 * // { values: ['main', 'Maintenance', 'domain'], total: 3, hasMore: false }
 * ```
 */
export function rankCompletions(
  candidates: Iterable<string>,
  value: string,
  options: RankOptions = {},
): RankedCompletions {
  const { values, total } = matchCompletions(candidates, value, clampMax(options.max));
  return { values, total, hasMore: total > values.length };
}

/**
 * The ranking behind {@link rankCompletions}, with any limit: keeps at most `limit` values but
 * counts every distinct match.
 */
export function matchCompletions(
  candidates: Iterable<string>,
  value: string,
  limit: number,
): { values: string[]; total: number } {
  const folded = value.toLowerCase();
  // Each group needs at most `limit` entries (earlier groups only push later ones further out),
  // which bounds memory when a source yields every file of a large tree.
  const groups: [string[], string[], string[]] = [[], [], []];
  const seen = new Set<string>();
  let total = 0;
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || seen.has(candidate)) continue;
    seen.add(candidate);
    const rank = rankOf(candidate, value, folded);
    if (rank === undefined) continue;
    total++;
    const group = groups[rank];
    if (group.length < limit) group.push(candidate);
  }
  return { values: groups.flat().slice(0, limit), total };
}

function rankOf(candidate: string, value: string, folded: string): 0 | 1 | 2 | undefined {
  if (candidate.startsWith(value)) return 0;
  const lower = candidate.toLowerCase();
  if (lower.startsWith(folded)) return 1;
  if (lower.includes(folded)) return 2;
  return undefined;
}

function clampMax(max: number | undefined): number {
  if (max === undefined || Number.isNaN(max)) return MAX_COMPLETION_VALUES;
  return Math.max(0, Math.min(MAX_COMPLETION_VALUES, Math.floor(max)));
}
