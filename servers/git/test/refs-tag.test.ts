import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

const rev = (fx: WriteFixture, ref: string) => git(fx.repo, 'rev-parse', ref).trim();
type Tags = { tags: Array<{ name: string; sha: string; annotated: boolean; subject: string; date: string }> };

describe.each(['legacy', 'modern'] as const)('git_tag, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('lists tags, lightweight and annotated, as text and structured', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'tag', 'v0', 'HEAD~2');
    git(fx.repo, 'tag', '-a', 'v1', '-m', 'Release one', 'HEAD~1');
    const result = await fx.session.callTool('git_tag', { action: 'list' });
    expect(result.isError).toBeFalsy();
    const { tags } = result.structuredContent as Tags;
    expect(tags.map((t) => t.name).sort()).toEqual(['v0', 'v1']);
    expect(tags.find((t) => t.name === 'v0')).toEqual({
      name: 'v0',
      sha: rev(fx, 'HEAD~2'),
      annotated: false,
      date: '2026-01-01T00:00:00+00:00',
      subject: 'commit 1',
    });
    expect(tags.find((t) => t.name === 'v1')).toMatchObject({
      sha: rev(fx, 'HEAD~1'),
      annotated: true,
      subject: 'Release one',
    });
    expect(textOf(result)).toContain('(annotated) Release one');
    const empty = await writeFixture(era);
    expect(textOf(await empty.session.callTool('git_tag', {}))).toBe('There are no tags.');
    await empty.cleanup();
  });

  it('creates a lightweight tag at HEAD and an annotated one at a target', async () => {
    fx = await writeFixture(era);
    const light = await fx.session.callTool('git_tag', { action: 'create', name: 'v1.0.0' });
    expect(light.isError).toBeFalsy();
    expect(git(fx.repo, 'cat-file', '-t', 'v1.0.0').trim()).toBe('commit');
    expect(rev(fx, 'v1.0.0')).toBe(rev(fx, 'HEAD'));
    const annotated = await fx.session.callTool('git_tag', {
      action: 'create',
      name: 'v0.9',
      target: 'HEAD~1',
      message: '-F /etc/passwd\n\n# kept',
    });
    expect(annotated.isError).toBeFalsy();
    expect((annotated.structuredContent as Tags).tags).toMatchObject([
      { name: 'v0.9', sha: rev(fx, 'HEAD~1'), annotated: true, subject: '-F /etc/passwd' },
    ]);
    expect(git(fx.repo, 'cat-file', '-t', 'v0.9').trim()).toBe('tag');
    expect(git(fx.repo, 'tag', '-l', '--format=%(contents)', 'v0.9').trim()).toBe('-F /etc/passwd\n\n# kept');
  });

  it('refuses bad names, targets and messages, creating nothing', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'tag', 'v1');
    const bad: Array<Record<string, unknown>> = [
      { name: 'v1' },
      { name: '--orphan=x' },
      { name: '-d' },
      { name: '-F' },
      { name: 'a..b' },
      { name: 'a\0b' },
      { name: 'x'.repeat(2000) },
      { name: 'ok', target: '--output=/tmp/x' },
      { name: 'ok', target: 'nope' },
      { name: 'ok', target: 'a\0b' },
      { name: 'ok', message: '' },
      { name: 'ok', message: 'a\0b' },
      {},
    ];
    for (const args of bad) {
      const result = await fx.session.callTool('git_tag', { action: 'create', ...args });
      expect(result.isError, JSON.stringify(args).slice(0, 40)).toBe(true);
      expect(textOf(result).split('\n')).toHaveLength(1);
      expect(textOf(result)).not.toContain(fx.base);
    }
    const listing = await fx.session.callTool('git_tag', { action: 'list', name: 'v1' });
    expect(listing.isError).toBe(true);
    expect(git(fx.repo, 'tag', '-l').trim()).toBe('v1');
    expect(rev(fx, 'v1')).toBe(rev(fx, 'HEAD'));
  });

  it('never signs a tag, even when the repository asks for it', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'config', 'tag.gpgSign', 'true');
    git(fx.repo, 'config', 'gpg.program', `${fx.outside}/gpg`);
    const result = await fx.session.callTool('git_tag', { action: 'create', name: 'v2', message: 'Two' });
    expect(result.isError).toBeFalsy();
    expect(git(fx.repo, 'cat-file', 'tag', 'v2')).not.toContain('BEGIN PGP');
  });

  it('asks for an identity before making an annotated tag', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'config', '--unset', 'user.name');
    const result = await fx.session.callTool('git_tag', { action: 'create', name: 'v3', message: 'Three' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('git config --global user.name');
    expect(git(fx.repo, 'tag', '-l')).toBe('');
  });
});
