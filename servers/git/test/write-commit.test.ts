import { chmod, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

describe.each(['legacy', 'modern'] as const)('git_commit, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('commits what is staged and reports the new SHA, branch and summary', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# App\nMore.\n');
    git(fx.repo, 'add', 'README.md');
    const result = await fx.session.callTool('git_commit', { message: 'Document the app\n\nWith a body.' });
    expect(result.isError).toBeFalsy();
    const sha = git(fx.repo, 'rev-parse', 'HEAD').trim();
    expect(result.structuredContent).toEqual({
      sha,
      branch: 'main',
      summary: '1 file changed, 1 insertion(+)',
    });
    expect(textOf(result)).toContain(sha);
    expect(git(fx.repo, 'log', '-1', '--format=%B').trim()).toBe('Document the app\n\nWith a body.');
    expect(fx.subjects()).toHaveLength(4);
    expect(fx.status()).toEqual([]);
  });

  it('stores a message that looks like an option as written, reading no file', async () => {
    fx = await writeFixture(era);
    for (const message of ['-F /etc/passwd', '--amend', '--file=/etc/passwd', '-m']) {
      await writeFile(join(fx.repo, 'README.md'), `# ${message}\n`);
      git(fx.repo, 'add', 'README.md');
      const result = await fx.session.callTool('git_commit', { message });
      expect(result.isError, message).toBeFalsy();
      expect(git(fx.repo, 'log', '-1', '--format=%B').trim()).toBe(message);
    }
    expect(fx.subjects()).toHaveLength(7);
    expect(git(fx.repo, 'log', '--format=%B')).not.toContain('root:');
  });

  it('keeps lines starting with # in the message', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'a.txt'), 'a\n');
    git(fx.repo, 'add', 'a.txt');
    await fx.session.callTool('git_commit', { message: 'Fix #12\n\n# not a comment' });
    expect(git(fx.repo, 'log', '-1', '--format=%B').trim()).toBe('Fix #12\n\n# not a comment');
  });

  it('refuses an empty, blank, NUL-holding or huge message, committing nothing', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'a.txt'), 'a\n');
    git(fx.repo, 'add', 'a.txt');
    for (const message of ['', '   \n\t', 'a\0b', 'x\u001b[31m', 'x'.repeat(70_000)]) {
      const result = await fx.session.callTool('git_commit', { message });
      expect(result.isError, JSON.stringify(message.slice(0, 20))).toBe(true);
      expect(textOf(result).split('\n')).toHaveLength(1);
    }
    expect(fx.subjects()).toHaveLength(3);
    expect(fx.status()).toEqual(['A  a.txt']);
  });

  it('says when nothing is staged', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), 'changed, not staged\n');
    const result = await fx.session.callTool('git_commit', { message: 'nothing' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Nothing is staged.*git_add/);
    expect(fx.subjects()).toHaveLength(3);
  });

  it('runs no hook', async () => {
    fx = await writeFixture(era);
    for (const hook of [
      'pre-commit',
      'commit-msg',
      'prepare-commit-msg',
      'post-commit',
      'reference-transaction',
    ]) {
      const path = join(fx.repo, '.git', 'hooks', hook);
      await writeFile(path, `#!/bin/sh\ntouch "${fx.outside}/${hook}"\nexit 1\n`);
      await chmod(path, 0o755);
    }
    await writeFile(join(fx.repo, 'a.txt'), 'a\n');
    git(fx.repo, 'add', 'a.txt');
    const result = await fx.session.callTool('git_commit', { message: 'hooked' });
    expect(result.isError).toBeFalsy();
    expect(await readdir(fx.outside)).toEqual(['secret.txt']);
    expect(fx.subjects()[0]).toBe('hooked');
  });

  it('asks the user to set an identity instead of guessing one', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'config', '--unset', 'user.email');
    await writeFile(join(fx.repo, 'a.txt'), 'a\n');
    git(fx.repo, 'add', 'a.txt');
    const result = await fx.session.callTool('git_commit', { message: 'who?' });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('git config --global user.email');
    expect(text).not.toContain(fx.base);
    expect(fx.subjects()).toHaveLength(3);
  });

  it('reports a null branch on a detached HEAD', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'switch', '-q', '--detach', 'HEAD~1');
    await writeFile(join(fx.repo, 'a.txt'), 'a\n');
    git(fx.repo, 'add', 'a.txt');
    const result = await fx.session.callTool('git_commit', { message: 'detached' });
    expect(result.structuredContent).toMatchObject({ branch: null });
    expect(textOf(result)).toContain('detached HEAD');
  });
});
