import { chmod, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

const rev = (fx: WriteFixture, ref: string) => git(fx.repo, 'rev-parse', ref).trim();
const current = (fx: WriteFixture) => git(fx.repo, 'branch', '--show-current').trim();

describe.each(['legacy', 'modern'] as const)('git_create_branch and git_checkout, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('creates a branch at HEAD or at a base, without switching', async () => {
    fx = await writeFixture(era);
    const atHead = await fx.session.callTool('git_create_branch', { branch_name: 'feature/a' });
    expect(atHead.structuredContent).toEqual({ branch: 'feature/a', sha: rev(fx, 'HEAD') });
    const atBase = await fx.session.callTool('git_create_branch', {
      branch_name: 'old',
      base_branch: 'HEAD~2',
    });
    expect(atBase.structuredContent).toEqual({ branch: 'old', sha: rev(fx, 'HEAD~2') });
    expect(rev(fx, 'refs/heads/old')).toBe(rev(fx, 'HEAD~2'));
    expect(current(fx)).toBe('main');
    expect(git(fx.repo, 'config', '--list')).not.toContain('branch.');
  });

  it('refuses an existing name, an option, ref syntax, a NUL and a very long name', async () => {
    fx = await writeFixture(era);
    const before = git(fx.repo, 'for-each-ref');
    for (const name of [
      'main',
      '--orphan=x',
      '-D',
      '-f',
      'a..b',
      'x@{1}',
      'a b',
      'HEAD',
      'a\0b',
      'x'.repeat(2000),
    ]) {
      const result = await fx.session.callTool('git_create_branch', { branch_name: name });
      expect(result.isError, name.slice(0, 20)).toBe(true);
      expect(textOf(result)).not.toContain(fx.base);
    }
    for (const base of ['--output=/tmp/x', '-D', 'HEAD --', 'nope', 'a\0b']) {
      const result = await fx.session.callTool('git_create_branch', { branch_name: 'ok', base_branch: base });
      expect(result.isError, base).toBe(true);
    }
    expect(git(fx.repo, 'for-each-ref')).toBe(before);
  });

  it('switches to an existing branch', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'branch', 'old', 'HEAD~1');
    const result = await fx.session.callTool('git_checkout', { branch_name: 'old' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ branch: 'old', sha: rev(fx, 'old') });
    expect(current(fx)).toBe('old');
    expect(fx.status()).toEqual([]);
    const again = await fx.session.callTool('git_checkout', { branch_name: 'old' });
    expect(again.isError).toBeFalsy();
  });

  it('refuses a value that is not exactly a local branch, changing nothing', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'tag', 'v1', 'HEAD~1');
    git(fx.repo, 'update-ref', 'refs/remotes/origin/topic', 'HEAD~1');
    for (const name of [
      'v1',
      'origin/topic',
      'HEAD~1',
      '--orphan=x',
      '-D',
      '--detach',
      '.',
      'README.md',
      'a\0b',
    ]) {
      const result = await fx.session.callTool('git_checkout', { branch_name: name });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).not.toContain(fx.base);
    }
    expect(current(fx)).toBe('main');
    expect(fx.status()).toEqual([]);
  });

  it('refuses to overwrite uncommitted changes, with a clear sentence', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'branch', 'old', 'HEAD~2');
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 42;\n');
    const result = await fx.session.callTool('git_checkout', { branch_name: 'old' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Switching to "old" would overwrite uncommitted changes in src/main.ts; commit them (git_commit) or stash them (git_stash) first.',
    );
    expect(current(fx)).toBe('main');
    expect(fx.status()).toEqual([' M src/main.ts']);
  });

  it('refuses to overwrite an ignored file, which plain git would overwrite', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'switch', '-q', '-c', 'other');
    await writeFile(join(fx.repo, 'local.env'), 'tracked on other\n');
    git(fx.repo, 'add', 'local.env');
    git(fx.repo, 'commit', '-q', '-m', 'track local.env');
    git(fx.repo, 'switch', '-q', 'main');
    await writeFile(join(fx.repo, '.git', 'info', 'exclude'), 'local.env\n');
    await writeFile(join(fx.repo, 'local.env'), 'my secret settings\n');
    const result = await fx.session.callTool('git_checkout', { branch_name: 'other' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('local.env');
    expect(current(fx)).toBe('main');
  });

  it('says when the branch is checked out in another work tree, without its host path', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'worktree', 'add', '-q', join(fx.base, 'repos', 'wt'), '-b', 'wt');
    const result = await fx.session.callTool('git_checkout', { branch_name: 'wt' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('another work tree');
    expect(textOf(result)).not.toContain(fx.base);
  });

  it('runs no hook when creating or switching', async () => {
    fx = await writeFixture(era);
    for (const hook of ['post-checkout', 'reference-transaction']) {
      const path = join(fx.repo, '.git', 'hooks', hook);
      await writeFile(path, `#!/bin/sh\ntouch "${fx.outside}/${hook}"\n`);
      await chmod(path, 0o755);
    }
    await fx.session.callTool('git_create_branch', { branch_name: 'b' });
    await fx.session.callTool('git_checkout', { branch_name: 'b' });
    expect(current(fx)).toBe('b');
    expect(await readdir(fx.outside)).toEqual(['secret.txt']);
  });
});
