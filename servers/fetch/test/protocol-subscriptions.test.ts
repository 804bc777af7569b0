/**
 * Subscriptions to cached pages, in both eras: the page is revalidated on an interval with a
 * conditional GET, and `resources/updated` fires when its content changed, never for a 304 or
 * for the same bytes sent again. Revalidation goes through the guarded client, so a redirect to
 * a private address is refused and the address is never reached.
 */
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from './support/clients.js';
import type { Handler } from './support/local-server.js';
import { type FetchWorld, fetchWorld, oneSentence, page } from './support/protocol-kit.js';

const UPDATED = 'notifications/resources/updated';

/** A page whose version the test bumps; it answers 304 to the ETag of the current version. */
function versioned() {
  const state = { version: 1 };
  const handler: Handler = (req, res) => {
    const etag = `"v${state.version}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html', etag });
    res.end(page(`Version ${state.version}`, `This is version ${state.version}.`));
  };
  return { state, handler };
}

async function subscribe(world: FetchWorld, session: TestSession, uri: string): Promise<() => Promise<void>> {
  if (session.era === 'legacy') {
    await session.client.subscribeResource({ uri });
    return async () => void (await session.client.unsubscribeResource({ uri }));
  }
  const sub = await session.client.listen({ resourceSubscriptions: [uri] });
  await expect.poll(() => world.app.hub.stats.watches).toBe(1);
  return () => sub.close();
}

const updatesOf = (session: TestSession, uri: string) =>
  session.notifications.byMethod(UPDATED).filter((n) => n.params?.uri === uri);

describe.each(['legacy', 'modern'] as const)('fetch cache subscriptions, %s era', (era) => {
  let world: FetchWorld;
  afterEach(() => world.close());

  it('revalidates with a conditional GET, stays quiet on 304 and fires when the page changed', async () => {
    const live = versioned();
    world = await fetchWorld({ '/live': live.handler });
    await world.fill('/live');
    const session = await world.connect(era);
    const uri = world.uri('/live');
    const unsubscribe = await subscribe(world, session, uri);
    expect(world.app.hub.stats.watches).toBe(1);
    // Three revalidations answered 304; the interval is ten times the debounce, so an update
    // any of them caused would have arrived by the third.
    await expect.poll(() => world.server.hits('/live'), { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    expect(world.server.lastHeaders('/live')?.['if-none-match']).toBe('"v1"');
    expect(updatesOf(session, uri)).toEqual([]);
    live.state.version = 2;
    await session.notifications.waitFor(UPDATED, (n) => n.params?.uri === uri);
    const read = await session.client.readResource({ uri });
    expect((read.contents[0] as { text: string }).text).toContain('This is version 2.');
    await unsubscribe();
    await expect.poll(() => world.app.hub.stats.watches).toBe(0);
  });

  it('does not fire when a server without validators sends the same bytes again', async () => {
    let body = 'same words';
    world = await fetchWorld({
      '/plain': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(body);
      },
    });
    await world.fill('/plain');
    const session = await world.connect(era);
    const uri = world.uri('/plain');
    const unsubscribe = await subscribe(world, session, uri);
    await expect.poll(() => world.server.hits('/plain'), { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    expect(world.server.lastHeaders('/plain')?.['if-none-match']).toBeUndefined();
    expect(updatesOf(session, uri)).toEqual([]);
    body = 'new words';
    await session.notifications.waitFor(UPDATED, (n) => n.params?.uri === uri);
    await unsubscribe();
  });

  it('refuses a revalidation that redirects to a private address, and keeps the stored copy', async () => {
    world = await fetchWorld({ '/moving': (_req, res) => res.end('placeholder') });
    world.server.route('/moving', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', etag: '"m1"' });
      res.end(page('Moving', 'The original text.'));
    });
    world.server.route('/secret', (_req, res) => res.end('secret'));
    await world.fill('/moving');
    world.server.route('/moving', (_req, res) => {
      res.writeHead(302, { location: world.server.url('/secret') });
      res.end();
    });
    const session = await world.connect(era);
    const uri = world.uri('/moving');
    const unsubscribe = await subscribe(world, session, uri);
    await expect.poll(() => world.server.hits('/moving'), { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    expect(world.server.hits('/secret')).toBe(0);
    expect(updatesOf(session, uri)).toEqual([]);
    const read = await session.client.readResource({ uri });
    expect((read.contents[0] as { text: string }).text).toContain('The original text.');
    // The watch goes on: once the page is back and changed, the subscriber hears it.
    world.server.route('/moving', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page('Moving', 'Back, and changed.'));
    });
    await session.notifications.waitFor(UPDATED, (n) => n.params?.uri === uri);
    expect(world.server.hits('/secret')).toBe(0);
    await unsubscribe();
  });

  it('tells a subscriber when a page it asked about is fetched, without requesting it first', async () => {
    const live = versioned();
    world = await fetchWorld({ '/later': live.handler });
    const session = await world.connect(era);
    const uri = world.uri('/later');
    const unsubscribe = await subscribe(world, session, uri);
    expect(world.server.hits('/later')).toBe(0);
    await world.fill('/later');
    await session.notifications.waitFor(UPDATED, (n) => n.params?.uri === uri);
    await unsubscribe();
  });

  it('tells a subscriber when the page is gone, and the read then says so', async () => {
    const live = versioned();
    world = await fetchWorld({ '/gone': live.handler });
    await world.fill('/gone');
    const session = await world.connect(era);
    const uri = world.uri('/gone');
    const unsubscribe = await subscribe(world, session, uri);
    world.server.route('/gone', (_req, res) => {
      res.writeHead(410, { 'content-type': 'text/plain' });
      res.end('gone');
    });
    await session.notifications.waitFor(UPDATED, (n) => n.params?.uri === uri);
    const error = await rejection(session.client.readResource({ uri }));
    expect(error.message).toContain('has not been fetched');
    await unsubscribe();
  });
});

describe('fetch cache subscriptions, legacy era only', () => {
  let world: FetchWorld;
  afterEach(() => world.close());

  it('refuses to watch a URI that names no URL, in one sentence', async () => {
    world = await fetchWorld({});
    const session = await world.connect('legacy');
    const error = await rejection(session.client.subscribeResource({ uri: 'fetch://cache/not%20a%20url' }));
    expect(error.message).toMatch(/cannot be watched/);
    expect(oneSentence(error.message)).toBe(true);
    expect(world.app.hub.stats.watches).toBe(0);
  });
});
