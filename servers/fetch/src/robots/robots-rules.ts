/**
 * robots.txt rules through robots-parser, with a bound on the work one decision may take.
 * robots-parser matches a wildcard pattern in time proportional to the pattern times the path,
 * and allocates an array the size of the path for every rule; a hostile site can pair 500 KiB of
 * `Disallow: /*a*a*…` with an 8 KiB URL and stall the server for seconds. The cost of a decision
 * is estimated from the text first, and a file too costly to evaluate is treated as unreadable.
 */
// Typed by robots-parser.d.ts beside this file (see tsconfig `paths`): the package's own
// declarations describe an export it does not have. A static import, so the bundle carries it.
import robotsParser from 'robots-parser';

/** The parsed rules of one robots.txt (the part of robots-parser used here). */
interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
}

/** Estimated character comparisons one decision may cost. */
export const MAX_MATCH_COST = 50_000_000;

/** Parsed rules plus what is needed to bound a decision. */
export interface RobotsRules {
  /** The robots.txt URL the rules came from. */
  url: string;
  /** Allow/Disallow lines. */
  rules: number;
  /** Characters in patterns that contain a `*` (the costly ones). */
  wildcardChars: number;
  robot: Robot;
}

/**
 * Parses a robots.txt body fetched from `robotsUrl`.
 *
 * @example
 * ```ts
 * const rules = parseRobots('https://a.example/robots.txt', 'User-agent: *\nDisallow: /private');
 * isAllowedBy(rules, 'https://a.example/private/x', 'ModelContextProtocol/1.0'); // false
 * ```
 */
export function parseRobots(robotsUrl: string, text: string): RobotsRules {
  let rules = 0;
  let wildcardChars = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const match = /^\s*(?:allow|disallow)\s*:\s*(\S*)/i.exec(line);
    if (!match) continue;
    rules++;
    const pattern = match[1] ?? '';
    if (pattern.includes('*')) wildcardChars += pattern.length;
  }
  return { url: robotsUrl, rules, wildcardChars, robot: robotsParser(robotsUrl, text) };
}

/**
 * Whether `url` may be fetched by `userAgent` under `rules`: true, false, or `undefined` when the
 * decision would cost more than {@link MAX_MATCH_COST} (the caller treats the file as unreadable).
 * A URL on another origin than the robots.txt is allowed (these rules do not speak for it).
 */
export function isAllowedBy(rules: RobotsRules, url: string, userAgent: string): boolean | undefined {
  const target = new URL(url);
  const pathLength = target.pathname.length + target.search.length + 1;
  if ((rules.rules + rules.wildcardChars) * pathLength > MAX_MATCH_COST) return undefined;
  return rules.robot.isAllowed(target.href, userAgent) ?? true;
}
