import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git, type RepoFixture, repoFixture } from './repo-kit.js';

describe.each(['legacy', 'modern'] as const)('git resources and prompts, %s era', (era) => {
  let fx: RepoFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('lists each repository status, reads it, a file at a ref and a commit', async () => {
    fx = await repoFixture();
    session = await connect(fx.app, { era });
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['git://repos%2Fapp/status']);
    const status = await session.client.readResource({ uri: 'git://repos%2Fapp/status' });
    expect(status.contents[0]).toMatchObject({ text: expect.stringContaining('On branch main') });
    const first = git(fx.repo, 'rev-list', '--max-parents=0', 'HEAD').trim();
    const old = await session.client.readResource({ uri: `git://repos%2Fapp/blob/${first}/src/main.ts` });
    expect(old.contents[0]).toMatchObject({ text: 'export const a = 1;\n' });
    const now = await session.client.readResource({ uri: 'git://repos%2Fapp/blob/main/src/main.ts' });
    expect(now.contents[0]).toMatchObject({ text: 'export const a = 2;\n' });
    const commit = await session.client.readResource({
      uri: `git://repos%2Fapp/commit/${first.slice(0, 8)}`,
    });
    expect(commit.contents[0]).toMatchObject({ text: expect.stringContaining('commit 1') });
    await expect(
      session.client.readResource({ uri: 'git://repos%2Fapp/blob/main/nope.txt' }),
    ).rejects.toThrow();
    await expect(
      session.client.readResource({ uri: 'git://repos%2Fapp/blob/main/..%2F..%2Foutside%2Fsecret.txt' }),
    ).rejects.toThrow();
    await expect(session.client.readResource({ uri: 'git://repos%2Fapp/blob/--output=x/a' })).rejects.toThrow(
      /starts with "-"/,
    );
  });

  it('completes refs, then the paths of the tree the chosen ref names', async () => {
    fx = await repoFixture();
    git(fx.repo, 'branch', 'feature');
    git(fx.repo, 'tag', 'v1', 'HEAD~2');
    session = await connect(fx.app, { era });
    const ref = { type: 'ref/resource' as const, uri: 'git://{repo}/blob/{ref}/{+path}' };
    const repos = await session.client.complete({ ref, argument: { name: 'repo', value: 'rep' } });
    expect(repos.completion.values).toEqual(['repos/app']);
    const refs = await session.client.complete({
      ref,
      argument: { name: 'ref', value: '' },
      context: { arguments: { repo: 'repos%2Fapp' } },
    });
    expect(refs.completion.values).toEqual(expect.arrayContaining(['main', 'feature', 'v1']));
    const atTag = await session.client.complete({
      ref,
      argument: { name: 'path', value: '' },
      context: { arguments: { repo: 'repos%2Fapp', ref: 'v1' } },
    });
    expect(atTag.completion.values.sort()).toEqual(['README.md', 'src/main.ts']);
    const atMain = await session.client.complete({
      ref,
      argument: { name: 'path', value: 'do' },
      context: { arguments: { repo: 'repos%2Fapp', ref: 'main' } },
    });
    expect(atMain.completion.values).toEqual(['docs/guide.md']);
  });

  it('tells a subscriber when HEAD moves', async () => {
    fx = await repoFixture();
    session = await connect(fx.app, { era });
    const uri = 'git://repos%2Fapp/status';
    const updated = session.notifications.waitFor(
      'notifications/resources/updated',
      (n) => JSON.stringify(n.params).includes('status'),
      5_000,
    );
    let close: () => Promise<unknown>;
    if (era === 'legacy') {
      await session.client.subscribeResource({ uri });
      close = () => session!.client.unsubscribeResource({ uri });
    } else {
      const sub = await session.client.listen({ resourceSubscriptions: [uri] });
      close = () => sub.close();
    }
    await expect.poll(() => fx.app.hub.stats.watches, { timeout: 3000 }).toBe(1);
    // A commit every 400 ms until heard: the watch takes its first tag some time after subscribing.
    let n = 0;
    const commit = async () => {
      await writeFile(join(fx.repo, 'later.txt'), `later ${++n}\n`);
      git(fx.repo, 'commit', '-qam', `later ${n}`);
    };
    await writeFile(join(fx.repo, 'later.txt'), 'later\n');
    git(fx.repo, 'add', 'later.txt');
    const timer = setInterval(() => void commit().catch(() => {}), 400);
    await updated.finally(() => clearInterval(timer));
    await close();
    await expect.poll(() => fx.app.hub.stats.watches, { timeout: 3000 }).toBe(0);
  });

  it('builds the review and release-notes prompts from the repository', async () => {
    fx = await repoFixture();
    git(fx.repo, 'tag', 'v1', 'HEAD~1');
    session = await connect(fx.app, { era });
    const notes = await session.client.getPrompt({ name: 'release_notes', arguments: { from: 'v1' } });
    expect(JSON.stringify(notes.messages)).toContain('commit 3');
    expect(JSON.stringify(notes.messages)).not.toContain('commit 2');
    git(fx.repo, 'switch', '-q', '-c', 'topic');
    await writeFile(join(fx.repo, 'README.md'), '# App, reviewed\n');
    const review = await session.client.getPrompt({ name: 'review_changes', arguments: { base: 'main' } });
    expect(JSON.stringify(review.messages)).toContain('App, reviewed');
    const bases = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'review_changes' },
      argument: { name: 'base', value: 'ma' },
    });
    expect(bases.completion.values).toEqual(['main']);
    await expect(
      session.client.getPrompt({ name: 'release_notes', arguments: { from: '--output=/tmp/x' } }),
    ).rejects.toThrow(/starts with "-"/);
  });
});
