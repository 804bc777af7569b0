/**
 * The test world the outside-in layers use, checked in process in both eras: its database opens,
 * the tools it promises are listed, and each of its two reads finds its own text and not the
 * other's (the HTTP layer relies on that to see that answers never cross).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, textOf } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteApp } from '../src/server.js';
import { requireBuiltChild } from './kit.js';
import { ERAS } from './tools-kit.js';
import { world } from './world.js';

let dir: string;

beforeAll(() => {
  requireBuiltChild();
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-sqlite-world-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(ERAS)('the test world, %s era', (era) => {
  it('serves its database read-only, lists its tools, and its two reads cannot be mistaken', async () => {
    const instance = await world.setup(mkdtempSync(join(dir, `${era}-`)));
    // The database as the one positional argument, as the official server and its ports take it.
    expect(instance.args).toHaveLength(1);
    const app = createSqliteApp({ database: instance.args[0] as string });
    const session = await connect(app, { era });
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(world.tools));
      expect(names).not.toContain('write_query');
      const [a, b] = instance.reads;
      const first = textOf(await session.callTool(a.tool, a.args));
      const second = textOf(await session.callTool(b.tool, b.args));
      expect(first).toContain(a.expect);
      expect(first).not.toContain(b.expect);
      expect(second).toContain(b.expect);
      expect(second).not.toContain(a.expect);
    } finally {
      await session.close();
      await app.close();
    }
  });
});
