import { connect } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { notesFixture, textOf } from './fixtures.js';

type Fixture = Awaited<ReturnType<typeof notesFixture>>;

// 2025-era only: roots/list_changed and session-scoped subscriptions do not exist in 2026.
describe('2025-era session behaviour', () => {
  let fx: Fixture;
  afterEach(() => fx.cleanup());

  it('re-reads roots on roots/list_changed, narrows to the new answer, and says resources changed', async () => {
    fx = await notesFixture();
    let roots = [fx.dir];
    const session = await connect(fx.app, { era: 'legacy', roots: () => roots });
    expect(textOf(await session.callTool('read_note', { name: 'alpha' }))).toContain('apples');
    roots = [fx.outside];
    await session.rootsChanged();
    await session.notifications.waitFor('notifications/resources/list_changed');
    const denied = await session.callTool('read_note', { name: 'alpha' });
    expect(denied.isError).toBe(true);
    roots = [];
    await session.rootsChanged();
    await expect
      .poll(async () => textOf(await session.callTool('list_notes')), { timeout: 3000 })
      .toMatch(/No notes directory is allowed|No directories are allowed/);
    await session.close();
  });

  it('releases every watch a session held when the session ends', async () => {
    fx = await notesFixture();
    const session = await connect(fx.app, { era: 'legacy' });
    await session.client.subscribeResource({ uri: 'note:///alpha' });
    await session.client.subscribeResource({ uri: 'note:///beta' });
    await expect.poll(() => fx.app.hub.stats.watches, { timeout: 3000 }).toBe(2);
    await session.close();
    await expect.poll(() => fx.app.hub.stats.watches, { timeout: 3000 }).toBe(0);
  });
});
