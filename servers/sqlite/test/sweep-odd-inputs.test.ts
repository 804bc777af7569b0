/**
 * The odd-input sweep, in both eras: every tool the SQLite server lists (with --write and an export
 * directory, so all of them are) is called with a battery of odd inputs made from its input schema
 * (statements wrong in every way SQLite can say so, or of the wrong kind for the tool, odd bound
 * values, table names, export paths and cursors, empty, huge and control-character strings), and
 * every prompt, completion and resource read gets odd values too, as does the model ask_database
 * lends its tools. Each answer must be a success or one short message: never "internal error", a
 * stack trace, a raw errno message or a host path the caller did not send. Writers get a fresh
 * database each.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import {
  connect,
  type OddInputTool,
  type OddSweepTarget,
  oddCompletionSweep,
  oddForeignCursors,
  oddInputAnswer,
  oddInputLabel,
  oddLoopAnswers,
  oddPromptSweep,
  oddResourceSweep,
  oddSweepCheck,
  oddToolSweep,
  type SamplingResponder,
  scriptedModel,
  type TestSession,
} from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteApp } from '../src/server.js';
import { tools as defined } from '../src/tools/index.js';
import { type Fixture, requireBuiltChild } from './kit.js';
import { ODD_SQL, ODD_TABLES, SQLITE_BASE, SQLITE_EXTRAS, sqliteBattery } from './sweep-world.js';
import { toolsFixture, treeHash } from './tools-kit.js';

const ERAS = ['legacy', 'modern'] as const;
const TOOL_NAMES = defined.map((t) => t.name);
// The package's own folder: an answer naming a source file leaks how the host is laid out.
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

/** A fixture served with every tool (--write, an export directory), connected in `era`. */
async function serve(era: (typeof ERAS)[number], sampling: SamplingResponder) {
  const fixture: Fixture = toolsFixture();
  const app = createSqliteApp({
    database: fixture.main,
    write: true,
    roots: await RootSet.create([join(fixture.dir, 'exports')]),
    resultPageSize: 2,
    // The view that never ends is stopped at the shortest limit there is.
    timeLimitMs: 1000,
  });
  const session = await connect(app, {
    era,
    elicitation: () => ({ action: 'accept', content: { confirm: true } }),
    sampling,
  });
  return {
    fixture,
    app,
    session,
    exportDir: join(fixture.dir, 'exports'),
    outside: join(fixture.dir, 'outside'),
  };
}

describe.each(ERAS)('odd inputs, %s era', (era) => {
  let world: Awaited<ReturnType<typeof serve>>;
  let app: App;
  let session: TestSession;
  let listed: OddInputTool[];
  let outsideHash: Record<string, string>;
  let foreignCursors: string[];
  // The model ask_database samples; the loop test below scripts one per call.
  let model = scriptedModel();
  const respond: SamplingResponder = (params) => model.respond(params);
  // The checks of an answer from `served`: no host path of its fixture, nor of the package.
  const target = (served: typeof world = world): OddSweepTarget => ({
    session: served.session,
    hosts: [served.fixture.dir, PACKAGE_DIR],
  });
  const check = (label: string, sent: unknown, answer: Awaited<ReturnType<typeof oddInputAnswer>>) =>
    oddSweepCheck(target(), label, sent, answer);

  beforeAll(async () => {
    requireBuiltChild();
    world = await serve(era, respond);
    ({ app, session } = world);
    outsideHash = treeHash(world.outside);
    listed = (await session.client.listTools()).tools as OddInputTool[];
    // Genuine cursors, each made for another call than the one it will be sent to.
    foreignCursors = await oddForeignCursors(session, [
      ['read_query', { query: 'SELECT * FROM t', max_rows: 1 }],
      ['list_tables', {}],
      ['export_query', { query: 'SELECT * FROM t', max_rows: 30 }],
    ]);
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    expect(treeHash(world.outside)).toEqual(outsideHash);
    world.fixture.cleanup();
  });

  it('lists every tool the server defines, so the sweep below covers them all', () => {
    expect(listed.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(foreignCursors.length).toBeGreaterThanOrEqual(2);
  });

  it.each(TOOL_NAMES)(
    '%s answers every odd input with a success or one clear sentence',
    async (name) => {
      const tool = listed.find((t) => t.name === name) as OddInputTool;
      const base = SQLITE_BASE[name];
      expect(base, `no base arguments for ${name}`).toBeDefined();
      // A writer changes the database: it gets one of its own, so the others see the fixture as built.
      const writes = tool.annotations?.readOnlyHint !== true;
      const own = writes ? await serve(era, respond) : world;
      let failures: string[] = [];
      try {
        failures = await oddToolSweep(target(own), tool, {
          base: base as Record<string, unknown>,
          battery: sqliteBattery(own.exportDir, own.outside, foreignCursors),
          extras: SQLITE_EXTRAS[name],
        });
        expect(treeHash(own.outside)).toEqual(outsideHash);
      } finally {
        if (own !== world) {
          await own.session.close();
          await own.app.close();
          own.fixture.cleanup();
        }
      }
      expect(failures).toEqual([]);
    },
    // Hundreds of statements, a few of them stopped at the time limit: more than the default test time.
    180_000,
  );

  it('tells the sampling model one clear sentence for every odd statement it runs', async () => {
    const failures: string[] = [];
    // Five statements a call: six model turns, the last one the answer.
    for (let i = 0; i < ODD_SQL.length; i += 5) {
      const chunk = ODD_SQL.slice(i, i + 5);
      model = scriptedModel({ toolCalls: chunk.map((query) => ({ name: 'read_query', input: { query } })) });
      const answer = await oddInputAnswer(session.callTool('ask_database', { question: 'What is in t?' }));
      failures.push(...check(`ask with ${oddInputLabel(chunk)}`, chunk, answer));
      const told = oddLoopAnswers(model.requests);
      expect(told.length).toBe(chunk.length);
      for (const [n, said] of told.entries()) {
        failures.push(...check(`loop ${oddInputLabel(chunk[n])}`, chunk, said));
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers odd prompt arguments with a prompt or one clear sentence', async () => {
    const failures = await oddPromptSweep(target(), {
      base: (a) => (a.required ? 't' : undefined),
      values: () => ODD_TABLES,
    });
    expect(failures).toEqual([]);
  }, 60_000);

  it('completes odd values to candidates or one clear sentence', async () => {
    const failures = await oddCompletionSweep(target(), {
      refs: [
        { ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' }, arg: 'name' },
        { ref: { type: 'ref/prompt', name: 'no_such_prompt' }, arg: 'table' },
      ],
      // Each value typed alone, then in the context of each odd table.
      tries: [undefined, ...ODD_TABLES].flatMap((table) =>
        ['', 'o', '%', table ?? 'x'].map((value) =>
          table === undefined ? value : { value, context: { table } },
        ),
      ),
    });
    expect(failures).toEqual([]);
  }, 60_000);

  it('reads odd resource URIs to contents or one clear sentence', async () => {
    const uris = [
      ...ODD_TABLES.flatMap((t) => {
        try {
          return [`sqlite://table/${encodeURIComponent(t)}`];
        } catch {
          return [];
        }
      }),
      'sqlite://table/%ZZ',
      'sqlite://table/',
      'sqlite://table/a/b',
      'sqlite://table/%2E%2E',
      'sqlite://schema?x=1',
      'sqlite://nothing',
      'memo://insights/x',
      `sqlite://table/${'x'.repeat(10_000)}`,
      '',
      'not a uri',
    ];
    const failures = await oddResourceSweep(target(), { uris, subscribe: () => true });
    expect(failures).toEqual([]);
  }, 60_000);
});
