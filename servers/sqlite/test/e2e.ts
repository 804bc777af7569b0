/**
 * The SQLite server's every-feature scenario: one session on a shop database (--write, an export
 * directory) that calls all ten tools, reads the resources, completes, gets the prompts, samples
 * with a tool round, asks before a wholesale DELETE and a DROP, follows changes made by another
 * program, reports progress, logs, and stops a runaway query and its query process. The end-to-end
 * layer runs it on the built bin over stdio and HTTP in both eras, plus read_query as a 2026 task.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  callWithProgress,
  cpuTimeMs,
  defineScenario,
  expectCancelled,
  expectLogMessage,
  expectResourceUpdated,
  expectToolError,
  listPaged,
  type ScenarioContext,
  type ScenarioFixture,
  textOf,
} from '@mcpkit/core/testing';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { alive, busyQueryProcess } from './processes.js';
import { world } from './world.js';

/** The official server's six tools, and this one's four. */
const SIX = ['read_query', 'write_query', 'create_table', 'list_tables', 'describe_table', 'append_insight'];
const TOOLS = [...SIX, 'explain_query', 'search_schema', 'export_query', 'ask_database'].sort();

/**
 * Counts to a billion in one native step: minutes of work, far past any wait below. The server runs
 * with a statement time limit of {@link TIME_LIMIT_S}, past the test's own timeout, so within the
 * test only a cancel can stop it.
 */
const RUNAWAY =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c';

/** The bin's `--time-limit`, in seconds: ten minutes. */
const TIME_LIMIT_S = 600;

/** Rows of the progress export: five pages of the export's 10,000-row reads. */
const EXPORT_ROWS = 50_000;
const NUMBERS = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${EXPORT_ROWS}) SELECT x, x * 2 AS twice FROM c`;

interface SqliteFixture extends ScenarioFixture {
  db: string;
  /** The export directory: never named by a call, so no answer may show it. */
  exports: string;
  outside: string;
}

type Ctx = ScenarioContext<SqliteFixture>;
type Paged = { nextCursor: string };

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** sha256 of every file directly in `dir`, by name (folders left out). */
async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) out[entry.name] = sha256(await readFile(join(dir, entry.name)));
  }
  return out;
}

/** Runs `sql` on the database as another program would, with a connection of its own. */
function fromOutside(file: string, sql: string): void {
  const db = new Database(file, { timeout: 5_000 });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** The first cell of the first row read_query returns. */
async function scalar(ctx: Ctx, query: string): Promise<unknown> {
  const result = await ctx.session.callTool('read_query', { query });
  expect(result.isError, textOf(result)).toBeFalsy();
  return (result.structuredContent as { rows: unknown[][] }).rows[0]?.[0];
}

async function toolsAndErrors(ctx: Ctx): Promise<void> {
  const { session } = ctx;
  const { db, exports, outside } = ctx.fixture;
  // Ten tools, two per page; --write shows the three that change the database too.
  const tools = await listPaged(ctx, 'tools/list', 5);
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);

  const motto = await session.callTool('read_query', {
    query: 'SELECT motto FROM teams WHERE name = ?',
    params: ['alpha'],
  });
  expect(motto.structuredContent).toMatchObject({ columns: ['motto'], rows: [['alpha-apples-are-crisp']] });
  expect(textOf(motto)).toMatch(/<untrusted-data-[0-9a-f-]+>\n\["motto"\]\n\["alpha-apples-are-crisp"\]/);
  // The bin's page size of 2 pages results too, behind a cursor.
  const ids = { query: 'SELECT id FROM orders ORDER BY id' };
  const { nextCursor: cursor } = (await session.callTool('read_query', ids)).structuredContent as Paged;
  const next = (await session.callTool('read_query', { ...ids, cursor })).structuredContent;
  expect(next).toMatchObject({ rows: [[3], [4]], offset: 2, truncated: true });

  // Bad input: each fails with one sentence that shows no path and changes nothing.
  const before = { db: await hashes(ctx.dir), outside: await hashes(outside) };
  expectToolError(await session.callTool('read_query', { query: 'SELECT * FROM missing' }), ctx.dir);
  expectToolError(await session.callTool('read_query', { query: 'SELECT 1; DROP TABLE teams' }), ctx.dir);
  expectToolError(await session.callTool('read_query', { query: `ATTACH '${outside}/x.db' AS x` }), db);
  const outOfDir = await session.callTool('export_query', { query: 'SELECT 1', path: '../outside/leak.csv' });
  expectToolError(outOfDir, exports);
  expect(await hashes(ctx.dir)).toEqual(before.db);
  expect(await hashes(outside)).toEqual(before.outside);

  // The schema tools.
  const listed = (await session.callTool('list_tables', {})).structuredContent as Paged & { tables: [] };
  const rest = (await session.callTool('list_tables', { cursor: listed.nextCursor })).structuredContent;
  expect([...listed.tables, ...(rest as { tables: [] }).tables]).toHaveLength(3);
  const described = await session.callTool('describe_table', { table_name: 'TEAMS' });
  const columns = [{ name: 'id' }, { name: 'name' }, { name: 'motto' }];
  expect(described.structuredContent).toMatchObject({ name: 'teams', columns, rowCount: 2 });
  const found = await session.callTool('search_schema', { term: 'team' });
  const teamId = { table: 'orders', type: 'table', column: 'team_id', columnType: 'INTEGER' };
  expect((found.structuredContent as { matches: unknown[] }).matches).toContainEqual(teamId);
  const plan = await session.callTool('explain_query', {
    query: 'SELECT total FROM orders WHERE team_id = ?',
    params: [1],
  });
  expect((plan.structuredContent as { plan: string[] }).plan.join('\n')).toContain('orders_by_team');
  const inResult = await session.callTool('export_query', { query: 'SELECT name FROM teams ORDER BY id' });
  expect(JSON.stringify(inResult.content)).toContain('name\\r\\nalpha\\r\\nbeta');
}

async function resourcesPromptsCompletion(ctx: Ctx): Promise<void> {
  const { client } = ctx.session;
  const resources = await listPaged(ctx, 'resources/list', 2);
  expect(resources.map((r) => r.uri).sort()).toEqual([
    'memo://insights',
    'sqlite://schema',
    'sqlite://table/orders',
    'sqlite://table/scratch',
    'sqlite://table/teams',
  ]);
  const templates = await listPaged(ctx, 'resources/templates/list', 1);
  expect(templates.map((t) => t.uriTemplate)).toEqual(['sqlite://table/{name}']);
  const schema = await client.readResource({ uri: 'sqlite://schema' });
  expect(schema.contents[0]).toMatchObject({ text: expect.stringContaining('team_id INTEGER') });
  const teams = await client.readResource({ uri: 'sqlite://table/teams' });
  expect(teams.contents[0]).toMatchObject({ text: expect.stringContaining('beta-bananas-are-bent') });

  const insight = await ctx.session.callTool('append_insight', {
    insight: 'Alpha and beta share the orders.',
  });
  expect(insight.structuredContent).toEqual({ count: 1 });
  const memo = await client.readResource({ uri: 'memo://insights' });
  expect(memo.contents[0]).toMatchObject({
    text: expect.stringContaining('Alpha and beta share the orders.'),
  });

  // Completion: a table in the template, then a column once the prompt's table is chosen.
  const byTemplate = await client.complete({
    ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' },
    argument: { name: 'name', value: 'te' },
  });
  expect(byTemplate.completion.values).toEqual(['teams']);
  const byPrompt = await client.complete({
    ref: { type: 'ref/prompt', name: 'explore_table' },
    argument: { name: 'column', value: 'mo' },
    context: { arguments: { table: 'teams' } },
  });
  expect(byPrompt.completion.values).toEqual(['motto']);

  const prompts = await listPaged(ctx, 'prompts/list', 2);
  expect(prompts.map((p) => p.name).sort()).toEqual(['explore_table', 'mcp-demo', 'query_for_question']);
  const explore = await client.getPrompt({
    name: 'explore_table',
    arguments: { table: 'teams', column: 'motto' },
  });
  expect(JSON.stringify(explore.messages)).toContain('sqlite://table/teams');
}

/** Sampling with a tool round: the model counts the orders through read_query, then answers. */
async function askDatabase(ctx: Ctx): Promise<void> {
  const { session, model } = ctx;
  const asked = await session.callTool('ask_database', { question: 'How many orders are there?' });
  expect(asked.isError, textOf(asked)).toBeFalsy();
  expect(asked.structuredContent).toMatchObject({
    answer: 'There are 40 orders.',
    queries: [{ sql: 'SELECT count(*) AS n FROM orders', rowCount: 1, truncated: false }],
    model: 'scripted',
  });
  expect(textOf(asked)).toContain('SQL run to answer it:');
  expect(model.requests.length).toBe(2);
  const round = JSON.stringify(model.requests[1]?.messages);
  expect(round).toContain('tool_result');
  expect(round).toContain('[40]');
}

/** Elicitation: a DELETE without WHERE and a DROP ask first; decline keeps the rows, accept runs. */
async function confirmDestructive(ctx: Ctx): Promise<void> {
  const { session, elicitor } = ctx;
  elicitor.next = 'decline';
  const declined = await session.callTool('write_query', { query: 'DELETE FROM scratch' });
  expect(textOf(declined)).toContain('declined');
  expect(declined.structuredContent).toMatchObject({ changed: false, kind: 'destructive' });
  expect(await scalar(ctx, 'SELECT count(*) FROM scratch')).toBe(3);
  elicitor.next = 'accept';
  const deleted = await session.callTool('write_query', { query: 'DELETE FROM scratch' });
  expect(deleted.structuredContent).toMatchObject({ changed: true, changes: 3 });
  expect(await scalar(ctx, 'SELECT count(*) FROM scratch')).toBe(0);
  const dropped = await session.callTool('write_query', { query: 'DROP TABLE scratch' });
  expect(dropped.structuredContent).toMatchObject({ changed: true, verb: 'DROP' });
  const created = await session.callTool('create_table', {
    query: 'CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)',
  });
  expect(created.structuredContent).toMatchObject({ changed: true, kind: 'ddl' });
  const inserted = await session.callTool('write_query', {
    query: 'INSERT INTO notes(body) VALUES (?) RETURNING id',
    params: ['first'],
  });
  expect(inserted.structuredContent).toMatchObject({ changed: true, rows: [[1]] });
  expect(elicitor.asked).toHaveLength(4);
  expect(elicitor.asked[0]).toContain('DELETE FROM scratch');
  expect(elicitor.asked[2]).toContain('DROP TABLE scratch');
  expect(elicitor.asked[3]).toContain('CREATE TABLE notes');
}

/** A table appearing outside the server: clients that listed resources hear list_changed. */
async function expectListChanged(ctx: Ctx): Promise<void> {
  const { session } = ctx;
  const listener =
    ctx.era === 'modern' ? await session.client.listen({ resourcesListChanged: true }) : undefined;
  try {
    const seen = new Set(session.notifications.all);
    const changed = session.notifications.waitFor(
      'notifications/resources/list_changed',
      (n) => !seen.has(n),
      10_000,
    );
    fromOutside(ctx.fixture.db, 'CREATE TABLE arrivals(id INTEGER PRIMARY KEY)');
    await changed;
  } finally {
    await listener?.close();
  }
  const uris = (await listPaged(ctx, 'resources/list', 1)).map((r) => r.uri);
  expect(uris).toContain('sqlite://table/arrivals');
}

/**
 * A runaway query is cancelled while its query process is seen working, and that process goes
 * away: the statement stopped, not only the answer. Nothing else can stop it within the test (the
 * time limit is ten minutes), and neither wait has a deadline of its own: a process that never gets
 * busy, or one that stays, is the test timeout's. Skipped without /proc.
 */
async function expectQueryProcessKilled(ctx: Ctx): Promise<void> {
  const server = await ctx.serverPid();
  if (server === undefined || (await cpuTimeMs(server)) === undefined) return;
  const controller = new AbortController();
  let ended = false;
  const outcome = ctx.session
    .callTool('read_query', { query: RUNAWAY }, { signal: controller.signal })
    .then(
      () => 'finished',
      () => 'cancelled',
    )
    .finally(() => {
      ended = true;
    });
  let busy: number | undefined;
  while (busy === undefined) {
    assert.ok(!ended, 'the runaway query ended before its query process was seen working');
    busy = await busyQueryProcess(server);
  }
  controller.abort();
  assert.equal(await outcome, 'cancelled', 'the runaway query finished before it was cancelled');
  while (alive(busy)) await sleep(50);
  expect(await scalar(ctx, 'SELECT 1 + 1')).toBe(2);
}

async function everyFeature(ctx: Ctx): Promise<void> {
  const { db, exports } = ctx.fixture;
  await toolsAndErrors(ctx);
  await resourcesPromptsCompletion(ctx);
  await askDatabase(ctx);
  await confirmDestructive(ctx);

  // Subscriptions: rows another program commits reach a table's subscriber; a new table, the list.
  await expectResourceUpdated(ctx, 'sqlite://table/orders', async (n) =>
    fromOutside(db, `INSERT INTO orders(team_id, total) VALUES (1, ${1000 + n})`),
  );
  await expectListChanged(ctx);

  // Progress: a file export reads its rows page by page and reports each page.
  const numbers = { query: NUMBERS, path: 'numbers.csv' };
  const { result, reports } = await callWithProgress(ctx, 'export_query', numbers);
  const exported = { written: true, rowCount: EXPORT_ROWS, path: 'exports/numbers.csv' };
  expect(result.structuredContent, textOf(result)).toMatchObject(exported);
  expect(reports.length).toBeGreaterThan(0);
  const csv = (await readFile(join(exports, 'numbers.csv'), 'utf8')).split('\r\n');
  expect(csv.slice(0, 3)).toEqual(['x,twice', '1,2', '2,4']);

  // Logging by the era's rule: read_query says how many rows it returned.
  const log = await expectLogMessage(ctx, 'read_query', { query: 'SELECT name FROM teams' });
  expect(JSON.stringify(log.params)).toContain('read_query: 2 rows from row 1');

  // Cancellation: the answer stops at once, and so does the query process doing the work.
  await expectCancelled(ctx, 'read_query', { query: RUNAWAY }, { after: 300 });
  await expectQueryProcessKilled(ctx);
}

export const scenario = defineScenario<SqliteFixture>({
  async setup(base) {
    // The test world's shop (two teams, forty orders), plus a table to delete from and drop.
    const db = (await world.setup(base)).args[0] as string;
    fromOutside(
      db,
      "CREATE TABLE scratch(id INTEGER PRIMARY KEY, note TEXT); INSERT INTO scratch(note) VALUES ('a'), ('b'), ('c')",
    );
    const exports = join(base, 'exports');
    const outside = join(base, 'outside');
    await mkdir(exports);
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'top secret\n');
    const args = ['--db', db, '--write', '--export-dir', exports, '--time-limit', String(TIME_LIMIT_S)];
    return { args, roots: [exports], db, exports, outside };
  },
  model: {
    toolCalls: [{ name: 'read_query', input: { query: 'SELECT count(*) AS n FROM orders' } }],
    answer: () => 'There are 40 orders.',
  },
  run: everyFeature,
  task: () => ({
    tool: 'read_query',
    args: { query: 'SELECT motto FROM teams WHERE id = ?', params: [2] },
    expectText: 'beta-bananas-are-bent',
    cancelArgs: { query: RUNAWAY },
  }),
});
