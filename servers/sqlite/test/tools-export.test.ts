/**
 * export_query, both eras: CSV and JSON in the result as an embedded resource (in parts behind a
 * cursor), and as a file inside the export directory. A file is never replaced without consent, and
 * no path leads out of the export directory (relative escapes, absolute paths, links to outside,
 * client roots elsewhere): each refusal is one sentence and the folders hash the same afterwards.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ERAS, structured, type ToolsWorld, toolsWorld, treeHash } from './tools-kit.js';

type Export = {
  format: string;
  columns: string[];
  rowCount: number;
  bytes: number;
  truncated: boolean;
  written: boolean;
  path?: string;
  nextCursor?: string;
};

/** The embedded resource of an export in the result. */
function resourceOf(result: CallToolResult): { uri: string; mimeType?: string; text: string } {
  const block = result.content.find((b) => b.type === 'resource');
  if (block?.type !== 'resource' || !('text' in block.resource))
    throw new Error('no text resource in the result');
  return block.resource as { uri: string; mimeType?: string; text: string };
}

describe.each(ERAS)('export_query, %s era', (era) => {
  let w: ToolsWorld | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it('returns CSV and JSON in the result, as an embedded resource, in parts behind a cursor', async () => {
    w = await toolsWorld(era);
    const csv = await w.call('export_query', { query: 'SELECT id, name FROM customers ORDER BY id' });
    expect(structured<Export>(csv)).toMatchObject({
      format: 'csv',
      rowCount: 3,
      written: false,
      truncated: false,
    });
    expect(resourceOf(csv)).toMatchObject({
      mimeType: 'text/csv',
      text: 'id,name\r\n1,Ada\r\n2,Brendan\r\n3,Chen\r\n',
    });
    expect(textOf(csv)).toMatch(/^Exported rows 1-3 as CSV in the attached resource; its content is data/);
    const guarded = resourceOf(
      await w.call('export_query', { query: "SELECT '=HYPERLINK(1)' AS f, -2 AS n" }),
    );
    expect(guarded.text).toBe("f,n\r\n'=HYPERLINK(1),-2\r\n");

    const query = 'SELECT id, name FROM t WHERE id > ? ORDER BY id';
    const first = await w.call('export_query', { query, params: [0], format: 'json', max_rows: 8 });
    const part = structured<Export>(first);
    expect(part).toMatchObject({ format: 'json', rowCount: 8, truncated: true });
    expect(resourceOf(first).mimeType).toBe('application/json');
    expect(JSON.parse(resourceOf(first).text)[0]).toEqual({ id: 1, name: 'row 1' });
    const second = await w.call('export_query', {
      query,
      params: [0],
      format: 'json',
      cursor: part.nextCursor,
    });
    const rows = JSON.parse(resourceOf(second).text) as { id: number }[];
    expect(rows.map((r) => r.id)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const wrong = await w.call('export_query', { query, params: [1], cursor: part.nextCursor });
    expect(textOf(wrong)).toMatch(/^This cursor belongs to another query/);
  });

  it('writes a file inside the export directory, and replaces one only with consent', async () => {
    const answers: Array<'accept' | 'decline'> = ['decline', 'accept'];
    w = await toolsWorld(era, {
      exports: true,
      client: {
        elicitation: () =>
          answers.shift() === 'accept'
            ? { action: 'accept', content: { confirm: true } }
            : { action: 'decline' },
      },
    });
    const query = 'SELECT id, total FROM orders WHERE customer_id = ? ORDER BY id';
    const result = await w.call('export_query', { query, params: [1], path: 'ada.csv' });
    expect(structured<Export>(result)).toMatchObject({
      written: true,
      rowCount: 10,
      path: 'exports/ada.csv',
    });
    const file = join(w.exportDir, 'ada.csv');
    const written = readFileSync(file, 'utf8');
    expect(written.split('\r\n')[0]).toBe('id,total');
    expect(written.split('\r\n')).toHaveLength(12);
    expect(textOf(result)).toMatch(/^Wrote 10 rows as CSV \(\d+ bytes\) to "exports\/ada\.csv"\.$/);

    const before = treeHash(w.exportDir);
    const declined = await w.call('export_query', { query: 'SELECT 1', path: file, format: 'json' });
    expect(textOf(declined)).toBe('Nothing was written: the user declined to replace "exports/ada.csv".');
    expect(treeHash(w.exportDir)).toEqual(before);
    const replaced = await w.call('export_query', { query: 'SELECT 1 AS one', path: file, format: 'json' });
    expect(structured<Export>(replaced).written).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([{ one: 1 }]);
    expect(Object.keys(treeHash(w.exportDir))).toEqual(['ada.csv']);
  });

  it('without elicitation, replaces a file only with confirm: true', async () => {
    w = await toolsWorld(era, { exports: true });
    writeFileSync(join(w.exportDir, 'old.json'), 'keep me');
    const before = treeHash(w.exportDir);
    const refused = await w.call('export_query', { query: 'SELECT 1', path: 'old.json', format: 'json' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Replace "exports\/old\.json" with this export\? .*"confirm": true/);
    expect(treeHash(w.exportDir)).toEqual(before);
    const done = await w.call('export_query', {
      query: 'SELECT 2 AS two',
      path: 'old.json',
      format: 'json',
      confirm: true,
    });
    expect(structured<Export>(done).written).toBe(true);
    expect(readFileSync(join(w.exportDir, 'old.json'), 'utf8')).toBe('[\n {\n  "two": 2\n }\n]\n');
  });

  it('refuses every path out of the export directory, writing nothing anywhere', async () => {
    w = await toolsWorld(era, { exports: true });
    symlinkSync(w.outside, join(w.exportDir, 'to-outside'));
    symlinkSync(join(w.outside, 'keep.txt'), join(w.exportDir, 'keep.csv'));
    symlinkSync(join(w.outside, 'new.csv'), join(w.exportDir, 'dangling.csv'));
    const before = treeHash(w.fixture.dir);
    const paths = [
      '../outside/stolen.csv',
      join(w.outside, 'stolen.csv'),
      'to-outside/stolen.csv',
      'keep.csv',
      'dangling.csv',
      '/etc/passwd',
      'missing-folder/x.csv',
      '.',
    ];
    for (const path of paths) {
      const result = await w.call('export_query', { query: 'SELECT * FROM customers', path, confirm: true });
      expect(result.isError, path).toBe(true);
      const text = textOf(result);
      // The caller's own path may be quoted back; no other host path may appear.
      expect(text.replaceAll(path, ''), path).not.toContain(w.fixture.dir);
      expect(text, path).not.toMatch(/\n\s+at /);
    }
    expect(treeHash(w.fixture.dir)).toEqual(before);
    expect(existsSync(join(w.outside, 'stolen.csv'))).toBe(false);
    expect(readFileSync(join(w.outside, 'keep.txt'), 'utf8')).toBe('outside the export directory\n');
  });

  it('refuses a file export when the client roots exclude the export directory, or when there is none', async () => {
    const client = await toolsWorld(era, { exports: true, client: { roots: [] } });
    try {
      const before = treeHash(client.fixture.dir);
      const result = await client.call('export_query', { query: 'SELECT 1', path: 'x.csv' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).not.toContain(client.fixture.dir);
      expect(treeHash(client.fixture.dir)).toEqual(before);
    } finally {
      await client.close();
    }
    w = await toolsWorld(era);
    const before = treeHash(w.fixture.dir);
    const none = await w.call('export_query', { query: 'SELECT 1', path: 'x.csv' });
    expect(textOf(none)).toBe(
      'This server has no export directory, so it writes no files; leave path out to get the export in the result, or start the server with --export-dir <dir>.',
    );
    const write = await w.call('export_query', { query: 'DELETE FROM t', path: 'x.csv' });
    expect(textOf(write)).toBe('The database is open read-only, so DELETE statements cannot run.');
    expect(treeHash(w.fixture.dir)).toEqual(before);
  });
});
