/**
 * The operator's statement time limit (`--time-limit`, here 1 s), both eras: a runaway recursive
 * CTE is stopped with the time-limit sentence on every path a client's request runs statements
 * through (read_query, export_query, write_query with and without RETURNING, the model's read_query
 * inside ask_database, describe_table's count of a view), a write stopped there changes nothing,
 * and the server goes on answering. No clock is read: what shows the limit is the sentence, which
 * names it, and each runaway never ends by itself.
 */
import { scriptedModel, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { witness } from './kit.js';
import { ERAS, structured, type ToolsWorld, toolsWorld } from './tools-kit.js';

const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';
const COUNT_FOREVER = `${ENDLESS} SELECT count(*) FROM c`;
const LATE = 'The statement ran past its time limit of 1 s and was stopped; add a LIMIT or a narrower WHERE.';

/** The text of a call that must have failed. */
function failure(result: { isError?: boolean; content: unknown }): string {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return textOf(result as Parameters<typeof textOf>[0]);
}

describe.each(ERAS)('a 1 s statement time limit, %s era', (era) => {
  let w: ToolsWorld | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it('stops a runaway query in read_query and export_query, and the server answers on', {
    timeout: 30_000,
  }, async () => {
    w = await toolsWorld(era, { timeLimitMs: 1_000 });
    const before = witness(w.fixture);
    expect(failure(await w.call('read_query', { query: COUNT_FOREVER }))).toBe(LATE);
    expect(failure(await w.call('export_query', { query: COUNT_FOREVER }))).toBe(LATE);
    // A view can hide the runaway: describe_table still describes it, and says why there is no count.
    const view = structured<{ rowCount: unknown; countError?: string }>(
      await w.call('describe_table', { table_name: 'forever' }),
    );
    expect(view).toMatchObject({ rowCount: null, countError: LATE });
    expect(structured<{ rows: unknown[][] }>(await w.call('read_query', { query: 'SELECT 7' })).rows).toEqual(
      [[7]],
    );
    expect(witness(w.fixture)).toEqual(before);
  });

  it('stops a runaway write, with or without RETURNING, and rolls it back', { timeout: 30_000 }, async () => {
    w = await toolsWorld(era, { write: true, timeLimitMs: 1_000 });
    const before = witness(w.fixture);
    const insert = `INSERT INTO t(v, name) ${ENDLESS} SELECT x, 'filler' FROM c`;
    expect(failure(await w.call('write_query', { query: insert }))).toBe(LATE);
    expect(failure(await w.call('write_query', { query: `${insert} RETURNING id` }))).toBe(LATE);
    const count = await w.call('read_query', { query: 'SELECT count(*) FROM t' });
    expect(structured<{ rows: unknown[][] }>(count).rows).toEqual([[20]]);
    expect(witness(w.fixture)).toEqual(before);
  });

  it("stops the model's runaway query inside ask_database, and the answer says so", {
    timeout: 30_000,
  }, async () => {
    const model = scriptedModel({
      toolCalls: [{ name: 'read_query', input: { query: COUNT_FOREVER } }],
      answer: () => 'The count could not be read in time.',
    });
    w = await toolsWorld(era, { timeLimitMs: 1_000, client: { sampling: model.respond } });
    const result = await w.call('ask_database', { question: 'How many numbers are there?' });
    const answer = structured<{ queries: { sql: string; error?: string }[] }>(result);
    expect(answer.queries).toEqual([{ sql: COUNT_FOREVER, error: LATE }]);
    expect(JSON.stringify(model.requests.at(-1)?.messages)).toContain('ran past its time limit of 1 s');
  });
});
