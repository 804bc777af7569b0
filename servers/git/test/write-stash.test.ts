import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

type Listing = { entries: Array<{ name: string; sha: string; message: string }>; total: number };

describe.each(['legacy', 'modern'] as const)('git_stash, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('pushes, lists and pops', async () => {
    fx = await writeFixture(era);
    const empty = await fx.session.callTool('git_stash', { action: 'list' });
    expect(textOf(empty)).toBe('The stash is empty.');
    await writeFile(join(fx.repo, 'README.md'), '# work in progress\n');
    const pushed = await fx.session.callTool('git_stash', { action: 'push', message: 'wip readme' });
    expect(pushed.isError).toBeFalsy();
    expect(fx.status()).toEqual([]);
    const listed = await fx.session.callTool('git_stash', { action: 'list' });
    const listing = listed.structuredContent as Listing;
    expect(listing.total).toBe(1);
    expect(listing.entries[0]).toMatchObject({
      name: 'stash@{0}',
      sha: git(fx.repo, 'rev-parse', 'refs/stash').trim(),
      message: 'On main: wip readme',
    });
    expect(textOf(listed)).toContain('stash@{0}');
    const popped = await fx.session.callTool('git_stash', { action: 'pop' });
    expect(popped.isError).toBeFalsy();
    expect(fx.status()).toEqual([' M README.md']);
    expect(await readFile(join(fx.repo, 'README.md'), 'utf8')).toBe('# work in progress\n');
    expect(git(fx.repo, 'stash', 'list')).toBe('');
  });

  it('stashes untracked files only when asked', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'new.txt'), 'new\n');
    const without = await fx.session.callTool('git_stash', { action: 'push' });
    expect(textOf(without)).toContain('no local changes');
    expect(fx.status()).toEqual(['?? new.txt']);
    const withUntracked = await fx.session.callTool('git_stash', { action: 'push', include_untracked: true });
    expect(withUntracked.isError).toBeFalsy();
    expect(fx.status()).toEqual([]);
    await fx.session.callTool('git_stash', { action: 'pop' });
    expect(fx.status()).toEqual(['?? new.txt']);
  });

  it('stores a message that looks like an option as written', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# wip\n');
    await writeFile(join(fx.repo, 'new.txt'), 'new\n');
    const result = await fx.session.callTool('git_stash', { action: 'push', message: '--include-untracked' });
    expect(result.isError).toBeFalsy();
    expect(git(fx.repo, 'stash', 'list')).toBe('stash@{0}: On main: --include-untracked\n');
    expect(fx.status()).toEqual(['?? new.txt']);
  });

  it('refuses a bad message, or a message with list or pop', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# wip\n');
    for (const args of [
      { action: 'push', message: 'two\nlines' },
      { action: 'push', message: 'a\0b' },
      { action: 'push', message: '' },
      { action: 'list', message: 'x' },
      { action: 'pop', message: 'x' },
      { action: '--all' },
    ]) {
      const result = await fx.session.callTool('git_stash', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
    }
    expect(git(fx.repo, 'stash', 'list')).toBe('');
    expect(fx.status()).toEqual([' M README.md']);
  });

  it('says so when popping an empty stash', async () => {
    fx = await writeFixture(era);
    const result = await fx.session.callTool('git_stash', { action: 'pop' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('The stash is empty; there is nothing to pop.');
  });

  it('says which files conflicted when a pop conflicts, keeping the entry', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# stashed version\n');
    git(fx.repo, 'stash', 'push', '-q');
    await writeFile(join(fx.repo, 'README.md'), '# committed version\n');
    git(fx.repo, 'commit', '-q', '-am', 'change readme');
    const result = await fx.session.callTool('git_stash', { action: 'pop' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Popping the stash conflicted in 1 file \(README\.md\); the entry was kept/,
    );
    expect(git(fx.repo, 'stash', 'list')).not.toBe('');
    expect(fx.status()).toEqual(['UU README.md']);
  });

  it('refuses to pop in a repository that declares a merge driver', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'config', 'merge.evil.driver', `touch ${fx.outside}/merge-driver`);
    await writeFile(join(fx.repo, '.gitattributes'), '* merge=evil\n');
    await writeFile(join(fx.repo, 'README.md'), '# stashed\n');
    git(fx.repo, 'stash', 'push', '-q');
    const result = await fx.session.callTool('git_stash', { action: 'pop' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('merge.evil.driver');
    expect(git(fx.repo, 'stash', 'list')).not.toBe('');
  });

  it('refuses to overwrite local changes when popping', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# stashed\n');
    git(fx.repo, 'stash', 'push', '-q');
    await writeFile(join(fx.repo, 'README.md'), '# newer local edit\n');
    const result = await fx.session.callTool('git_stash', { action: 'pop' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('would overwrite uncommitted changes in README.md');
    expect(await readFile(join(fx.repo, 'README.md'), 'utf8')).toBe('# newer local edit\n');
  });
});
