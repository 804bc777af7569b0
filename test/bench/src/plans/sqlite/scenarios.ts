/**
 * The SQLite scenarios of the server issue: read_query returning 10,000 rows, list_tables on a
 * thousand tables, describe_table on a 200-column table. Ours and the peer (mcp-server-sqlite-npx,
 * a Node port of the official server) are asked for the same whole answer. The floor is the issue's
 * "in-process better-sqlite3 floor plus the SDK echo floor": the same reads with better-sqlite3 in
 * the bench process, serialised, then one round trip of that many bytes to the SDK echo server.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { echoFloor } from '../../echo-floor.js';
import { allPages, type Op, type Scenario, type SessionContext, single, structured } from '../../scenario.js';
import type { Session } from '../../session.js';
import { count } from '../labels.js';
import type { SqliteFixtures, SqliteSizes } from './fixtures.js';

type S = Scenario<SqliteFixtures>;
type Ctx = SessionContext<SqliteFixtures>;

/** The implementation id of the peer's rows. */
export const PEER_IMPL = 'sqlite-npx';

const ITEMS_SQL = 'SELECT * FROM items ORDER BY id';

/** A fast partial answer is no win: the rows of every page must add up to the table. */
function expectRows(answers: readonly CallToolResult[], want: number): void {
  const got = answers.reduce((n, a) => n + ((structured(a).rows as unknown[] | undefined)?.length ?? 0), 0);
  if (got !== want) throw new Error(`read_query rows: got ${got}, expected ${want}.`);
}

/** Ours: the largest page the tool allows, then every further page. */
const ourQuery =
  (session: Session, { fixtures }: Ctx): Op =>
  async () => {
    const result = await allPages(session, 'read_query', { query: ITEMS_SQL, max_rows: fixtures.sizes.rows });
    expectRows(result.answers, fixtures.sizes.rows);
    return result;
  };

/** The peer answers the whole result in one text block of JSON. */
const peerQuery =
  (session: Session, { fixtures }: Ctx): Op =>
  async () => {
    const result = await single(session, 'read_query', { query: ITEMS_SQL });
    const block = result.answers[0]?.content[0];
    const rows = block?.type === 'text' ? (JSON.parse(block.text) as unknown[]) : [];
    if (rows.length !== fixtures.sizes.rows)
      throw new Error(`peer rows: got ${rows.length}, expected ${fixtures.sizes.rows}.`);
    return result;
  };

const call =
  (name: string, args: (f: SqliteFixtures) => Record<string, unknown>) =>
  (session: Session, { fixtures }: Ctx): Op =>
  () =>
    single(session, name, args(fixtures));

/**
 * A floor operation: `read` with better-sqlite3 on one read-only connection per floor session
 * (opened on first use, like a server's), serialised as a server would send it, then carried
 * through the SDK echo round trip.
 */
const floorOp =
  (read: (db: Database.Database) => unknown) =>
  async (ctx: Ctx): Promise<Op> => {
    const echo = await echoFloor(ctx);
    let db: Database.Database | undefined;
    ctx.onEnd(async () => {
      db?.close();
    });
    return async () => {
      db ??= new Database(ctx.fixtures.file, { readonly: true });
      return echo(JSON.stringify(read(db)));
    };
  };

const floorQuery = floorOp((db) => db.prepare(ITEMS_SQL).all());

const floorTables = floorOp((db) =>
  db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all(),
);

/** What describe_table shows: columns, indexes, foreign keys, the row count and a few rows. */
const floorDescribe = floorOp((db) => ({
  columns: db.prepare('SELECT * FROM pragma_table_xinfo(?)').all('wide'),
  indexes: db.prepare('SELECT * FROM pragma_index_list(?)').all('wide'),
  foreignKeys: db.prepare('SELECT * FROM pragma_foreign_key_list(?)').all('wide'),
  rowCount: db.prepare('SELECT count(*) AS n FROM wide').get(),
  sample: db.prepare('SELECT * FROM wide LIMIT 5').all(),
}));

/** The floor row's label, so the report says it is more than plain Node. */
const FLOOR_LABEL = 'floor (better-sqlite3 in process + SDK echo round trip)';

/** The two targets for each scenario. */
const goals = (what: string): S['goals'] => [
  { metric: 'p50', versus: 'peer', atMost: 0.5, text: `${what} ≥ 2× faster than ${PEER_IMPL}` },
  {
    metric: 'p50',
    versus: 'floor',
    atMost: 1.5,
    text: `${what} within 1.5× of an in-process better-sqlite3 floor plus the SDK echo floor`,
  },
];

/** The SQLite scenarios of the server issue, in report order, titled with the sizes in use. */
export function sqliteScenarios(sizes: SqliteSizes): S[] {
  return [
    {
      id: 'query-10k',
      title: `read_query ${count(sizes.rows)} rows`,
      kind: 'calls',
      warmup: 1,
      calls: 10,
      goals: goals(`read_query ${count(sizes.rows)} rows`),
      server: { ours: ourQuery, [PEER_IMPL]: peerQuery },
      floor: floorQuery,
      floorLabel: FLOOR_LABEL,
    },
    {
      id: 'list-tables-1k',
      title: `list_tables ${count(sizes.tables)} tables`,
      kind: 'calls',
      warmup: 1,
      calls: 20,
      goals: goals(`list_tables ${count(sizes.tables)}`),
      server: { ours: call('list_tables', () => ({})), [PEER_IMPL]: call('list_tables', () => ({})) },
      floor: floorTables,
      floorLabel: FLOOR_LABEL,
    },
    {
      id: 'describe-200',
      title: `describe_table ${sizes.columns} columns`,
      kind: 'calls',
      warmup: 1,
      calls: 20,
      goals: goals(`describe_table ${sizes.columns} columns`),
      server: {
        ours: call('describe_table', () => ({ table_name: 'wide' })),
        [PEER_IMPL]: call('describe_table', () => ({ table_name: 'wide' })),
      },
      floor: floorDescribe,
      floorLabel: FLOOR_LABEL,
    },
  ];
}
