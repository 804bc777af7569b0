import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { announceChange } from '../src/context.js';
import { INSIGHT_EVENT } from '../src/resources/database-watch.js';
import { type AppFixture, appFixture, nextUpdate, outside, subscribe, textOfRead } from './protocol-kit.js';

/** The next `resources/list_changed` that arrives after this call. */
function nextListChange(session: TestSession): Promise<unknown> {
  const seen = new Set(session.notifications.all);
  return session.notifications.waitFor('notifications/resources/list_changed', (n) => !seen.has(n), 10_000);
}

describe.each(['legacy', 'modern'] as const)('SQLite subscriptions, %s era', (era) => {
  let fx: AppFixture | undefined;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx?.close();
    fx = undefined;
  });

  it('tells a table subscriber when another program commits, and stops after unsubscribe', async () => {
    fx = appFixture();
    session = await connect(fx.app, { era });
    const uri = 'sqlite://table/orders';
    const stop = await subscribe(session, fx.app, uri);
    const updated = nextUpdate(session, uri);
    outside(fx, "INSERT INTO orders(customer_id, total, placed) VALUES (1, 999, '2025-02-01')");
    await updated;
    expect(textOfRead(await session.client.readResource({ uri }))).toContain('table orders: 31 rows');
    await stop();
    await expect.poll(() => fx!.app.hub.stats.watches, { timeout: 5_000 }).toBe(0);
  });

  it('tells a table subscriber at once about a write announced on context.changes', async () => {
    fx = appFixture();
    session = await connect(fx.app, { era });
    const uri = 'sqlite://table/t';
    const stop = await subscribe(session, fx.app, uri);
    const updated = nextUpdate(session, uri);
    // Nothing was committed, so the poll sees no change: only the announcement can notify.
    announceChange(fx.app.context, 'data');
    await updated;
    await stop();
  });

  it('tells a schema subscriber when the schema changes, from outside or announced', async () => {
    fx = appFixture();
    session = await connect(fx.app, { era });
    const uri = 'sqlite://schema';
    const stop = await subscribe(session, fx.app, uri);
    const outsideChange = nextUpdate(session, uri);
    outside(fx, 'ALTER TABLE t ADD COLUMN extra TEXT');
    await outsideChange;
    const schema = textOfRead(await session.client.readResource({ uri }));
    expect(schema).toContain('table t(id INTEGER PRIMARY KEY, v INTEGER, name TEXT, extra TEXT)');
    const announced = nextUpdate(session, uri);
    announceChange(fx.app.context, 'schema');
    await announced;
    await stop();
  });

  it('sends list_changed when a table appears or goes outside the server', async () => {
    fx = appFixture();
    session = await connect(fx.app, { era });
    const listener =
      era === 'modern' ? await session.client.listen({ resourcesListChanged: true }) : undefined;
    const before = (await session.client.listResources()).resources.map((r) => r.uri);
    expect(before).not.toContain('sqlite://table/fresh');
    const created = nextListChange(session);
    outside(fx, 'CREATE TABLE fresh(id INTEGER PRIMARY KEY, label TEXT)');
    await created;
    const after = (await session.client.listResources()).resources.map((r) => r.uri);
    expect(after).toContain('sqlite://table/fresh');
    const dropped = nextListChange(session);
    outside(fx, 'DROP TABLE fresh');
    await dropped;
    expect((await session.client.listResources()).resources.map((r) => r.uri)).toEqual(before);
    await listener?.close();
  });

  it('tells a memo subscriber when an insight is added', async () => {
    fx = appFixture();
    session = await connect(fx.app, { era });
    const uri = 'memo://insights';
    const stop = await subscribe(session, fx.app, uri);
    // The memo's own event, as append_insight dispatches it: the watch relays it.
    const relayed = nextUpdate(session, uri);
    fx.app.context.insights.append('Totals grow with the order id.');
    fx.app.context.changes.dispatchEvent(new Event(INSIGHT_EVENT));
    await relayed;
    // And end to end, through the tool.
    const byTool = nextUpdate(session, uri);
    const result = await session.callTool('append_insight', { insight: 'Chen has ten orders.' });
    expect(result.isError).toBeFalsy();
    await byTool;
    const memo = textOfRead(await session.client.readResource({ uri }));
    expect(memo).toContain('1. Totals grow with the order id.\n2. Chen has ten orders.');
    await stop();
  });

  it('tells a table subscriber about our own write_query (write mode)', async () => {
    fx = appFixture({ write: true });
    session = await connect(fx.app, { era });
    const uri = 'sqlite://table/t';
    const stop = await subscribe(session, fx.app, uri);
    const updated = nextUpdate(session, uri);
    const result = await session.callTool('write_query', {
      query: 'INSERT INTO t(v, name) VALUES (?, ?)',
      params: [21, 'row 21'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    await updated;
    expect(textOfRead(await session.client.readResource({ uri }))).toContain('table t: 21 rows');
    await stop();
  });
});
