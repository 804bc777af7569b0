/// <reference lib="dom" />
/**
 * The fetch scenarios of the server issue: a 1 MB article page turned into Markdown, and 100 small
 * pages fetched one after another, from the bench's 127.0.0.1 server. Every call uses a URL no
 * cache has seen (a query string per call), so each one downloads and converts. Ours calls `fetch`;
 * the peer (mcp-fetch-server) calls `fetch_readable`, its Readability + Markdown tool; the floor
 * fetches with undici and runs the same libraries (linkedom, Readability, Turndown) in the bench
 * process, no MCP.
 */
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { request } from 'undici';
import { built, type Op, type OpResult, type Scenario, type SessionContext, single } from '../../scenario.js';
import type { Session } from '../../session.js';
import { size } from '../labels.js';

/** The web server a suite runs: where ours and the peer reach it. */
export interface FetchFixtures {
  args: readonly string[];
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The same server under the name the peer's preload resolves. */
  peerOrigin: string;
  articleBytes: number;
  smallPages: number;
  close(): Promise<void>;
}

export interface FetchSizes {
  articleBytes: number;
  smallPages: number;
}

export const SIZES = {
  full: { articleBytes: 1024 * 1024, smallPages: 100 },
  tiny: { articleBytes: 32 * 1024, smallPages: 4 },
} as const satisfies Record<string, FetchSizes>;

type F = Scenario<FetchFixtures>;
type Ctx = SessionContext<FetchFixtures>;

/** The implementation id of the peer's rows. */
export const PEER_IMPL = 'mcp-fetch-server';

/** Characters asked for per call: the official default page. */
const MAX_LENGTH = 5000;

/** A URL that no cache has seen: the session's tag and the call's index in the query string. */
const fresh = (base: string, path: string, tag: string, index: number, n = 0) =>
  `${base}${path}?s=${tag}-${index}-${n}`;

const ourArticle =
  (session: Session, { fixtures, tag }: Ctx): Op =>
  (index) =>
    single(session, 'fetch', { url: fresh(fixtures.origin, '/article', tag, index), max_length: MAX_LENGTH });

const peerArticle =
  (session: Session, { fixtures, tag }: Ctx): Op =>
  (index) =>
    single(session, 'fetch_readable', {
      url: fresh(fixtures.peerOrigin, '/article', tag, index),
      max_length: MAX_LENGTH,
    });

function smallRun(tool: string, origin: (f: FetchFixtures) => string) {
  return (session: Session, { fixtures, tag }: Ctx): Op =>
    async (index) => {
      const result: OpResult = { answers: [] };
      for (let i = 0; i < fixtures.smallPages; i++) {
        const url = fresh(origin(fixtures), `/page/${i}`, tag, index, i);
        result.answers.push(...(await single(session, tool, { url, max_length: MAX_LENGTH })).answers);
      }
      return result;
    };
}

// linkedom's own declarations do not type-check against lib.dom, so it is imported by a specifier
// the compiler does not resolve, and typed here by the part used.
const LINKEDOM: string = 'linkedom';
const { parseHTML } = (await import(LINKEDOM)) as { parseHTML(html: string): { document: Document } };

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });

/** The floor's page: download with undici, Readability on linkedom, Turndown, the first page of it. */
async function floorPage(url: string): Promise<string> {
  const response = await request(url);
  const html = await response.body.text();
  const { document } = parseHTML(html);
  const article = new Readability(document).parse();
  return turndown.turndown(article?.content ?? '').slice(0, MAX_LENGTH);
}

const floorArticle =
  ({ fixtures, tag }: Ctx): Op =>
  async (index) =>
    built(await floorPage(fresh(fixtures.origin, '/article', tag, index)));

const floorSmall =
  ({ fixtures, tag }: Ctx): Op =>
  async (index) => {
    let text = '';
    for (let i = 0; i < fixtures.smallPages; i++)
      text += await floorPage(fresh(fixtures.origin, `/page/${i}`, tag, index, i));
    return built(text);
  };

const goals = (what: string): F['goals'] => [
  { metric: 'p50', versus: 'peer', atMost: 0.5, text: `${what} ≥ 2× faster than ${PEER_IMPL}` },
  { metric: 'peakRss', versus: 'peer', atMost: 1, text: `${what}: peak RSS below ${PEER_IMPL}` },
  { metric: 'p50', versus: 'floor', atMost: 2, text: `${what} within 2× of undici + extraction in process` },
];

/** The fetch scenarios of the server issue, in report order, titled with the sizes in use. */
export function fetchScenarios(sizes: FetchSizes): F[] {
  return [
    {
      id: 'article-1mb',
      title: `fetch ${size(sizes.articleBytes, 'short')} article → Markdown`,
      kind: 'calls',
      warmup: 1,
      calls: 8,
      goals: goals(`${size(sizes.articleBytes, 'short')} article`),
      server: { ours: ourArticle, [PEER_IMPL]: peerArticle },
      floor: floorArticle,
    },
    {
      id: 'small-100',
      title: `fetch ${sizes.smallPages} small pages in sequence`,
      kind: 'calls',
      warmup: 1,
      calls: 3,
      goals: goals(`${sizes.smallPages} small pages`),
      server: {
        ours: smallRun('fetch', (f) => f.origin),
        [PEER_IMPL]: smallRun('fetch_readable', (f) => f.peerOrigin),
      },
      floor: floorSmall,
    },
  ];
}
