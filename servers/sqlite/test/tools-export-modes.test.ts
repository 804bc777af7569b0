/**
 * Where export_query is offered, and what its annotations say, both eras. It may write a file, so
 * it is not annotated read-only and hosts ask before it runs. The default server is read-only for
 * its database only, so it still offers the export and writes inside the export directory; --write
 * offers it beside write_query; --read-only means change nothing, so it is hidden and no call of it
 * writes a file. A command line asking for an export directory and --read-only is refused.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '@mcpkit/core/logging';
import { type ParsedCommandLine, parseCommandLine } from '@mcpkit/core/runner';
import { textOf } from '@mcpkit/core/testing';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../src/cli.js';
import { witness } from './kit.js';
import { ERAS, structured, type ToolsWorld, toolsFixture, toolsWorld, treeHash } from './tools-kit.js';

/** What export_query tells a host: it changes things (a file), may replace one, and repeats safely. */
const EXPORT_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

const byName = (tools: Tool[]) => new Map(tools.map((t) => [t.name, t]));

describe.each(ERAS)('export_query by mode, %s era', (era) => {
  let w: ToolsWorld | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it('is offered by the default server, annotated as writing, and writes only its file', async () => {
    w = await toolsWorld(era, { exports: true });
    expect(w.app.readOnly).toBe('data');
    const tools = byName((await w.session.client.listTools()).tools);
    expect(tools.get('export_query')?.annotations).toMatchObject(EXPORT_ANNOTATIONS);
    expect(tools.has('write_query')).toBe(false);
    expect(tools.has('create_table')).toBe(false);
    // Every other tool the default server offers is read-only: the export is the one exception.
    const writing = [...tools.values()].filter((t) => t.annotations?.readOnlyHint !== true);
    expect(writing.map((t) => t.name)).toEqual(['export_query']);

    const database = witness(w.fixture);
    const result = await w.call('export_query', {
      query: 'SELECT name FROM customers ORDER BY id',
      path: 'c.csv',
    });
    expect(structured(result)).toMatchObject({ written: true, path: 'exports/c.csv' });
    expect(readFileSync(join(w.exportDir, 'c.csv'), 'utf8')).toBe('name\r\nAda\r\nBrendan\r\nChen\r\n');
    expect(witness(w.fixture)).toEqual(database);
  });

  it('is offered beside write_query when writes are allowed', async () => {
    w = await toolsWorld(era, { exports: true, write: true });
    expect(w.app.readOnly).toBe(false);
    const tools = byName((await w.session.client.listTools()).tools);
    expect(tools.get('export_query')?.annotations).toMatchObject(EXPORT_ANNOTATIONS);
    expect(tools.has('write_query')).toBe(true);
    const result = await w.call('export_query', {
      query: 'SELECT 1 AS one',
      path: 'one.json',
      format: 'json',
    });
    expect(structured(result)).toMatchObject({ written: true, path: 'exports/one.json' });
  });

  it('is hidden when nothing may change, and calling it anyway writes nothing', async () => {
    w = await toolsWorld(era, { exports: true, readOnly: true });
    expect(w.app.readOnly).toBe(true);
    const tools = (await w.session.client.listTools()).tools;
    expect(tools.map((t) => t.name)).not.toContain('export_query');
    expect(tools.map((t) => t.name)).toContain('read_query');
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);

    const before = { database: witness(w.fixture), folder: treeHash(w.fixture.dir) };
    const answer = await w.call('export_query', { query: 'SELECT 1', path: 'x.csv' }).then(
      (result) => ({ isError: result.isError === true, text: textOf(result) }),
      (error: Error) => ({ isError: true, text: error.message }),
    );
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/export_query/);
    expect(existsSync(join(w.exportDir, 'x.csv'))).toBe(false);
    expect(treeHash(w.fixture.dir)).toEqual(before.folder);
    expect(witness(w.fixture)).toEqual(before.database);
  });
});

/** The server's command line as the bin parses it: these arguments, and only this environment. */
function commandLine(argv: string[], env: Record<string, string> = {}): ParsedCommandLine {
  return parseCommandLine(argv, cli.options, env, cli.bin);
}

describe('the command line', () => {
  it('maps no flag to database read-only, --read-only to change nothing, --write to changes', async () => {
    const fixture = toolsFixture();
    try {
      for (const [argv, expected] of [
        [['--db', fixture.main], 'data'],
        [['--db', fixture.main, '--read-only'], true],
        [['--db', fixture.main, '--write'], false],
      ] as const) {
        const app = await cli.create(commandLine([...argv]), silentLogger);
        try {
          expect(app.readOnly, argv.join(' ')).toBe(expected);
        } finally {
          await app.close();
        }
      }
    } finally {
      fixture.cleanup();
    }
  });

  it('refuses an export directory with --read-only, naming what the user set', async () => {
    const fixture = toolsFixture();
    try {
      const argv = ['--db', fixture.main, '--export-dir', join(fixture.dir, 'exports')];
      await expect(async () =>
        cli.create(commandLine([...argv, '--read-only']), silentLogger),
      ).rejects.toThrow('Give --export-dir or --read-only, not both: read-only writes no export files.');
      const fromEnv = commandLine(argv, { MCPKIT_READ_ONLY: 'true' });
      await expect(async () => cli.create(fromEnv, silentLogger)).rejects.toThrow(
        'Give --export-dir or MCPKIT_READ_ONLY, not both: read-only writes no export files.',
      );
    } finally {
      fixture.cleanup();
    }
  });
});
