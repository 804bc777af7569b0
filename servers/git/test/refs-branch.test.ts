import { execFileSync } from 'node:child_process';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_ENV, git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

const rev = (fx: WriteFixture, ref: string) => git(fx.repo, 'rev-parse', ref).trim();

/** A remote-tracking branch `origin/main` one commit behind, which `main` tracks. */
function addUpstream(fx: WriteFixture): void {
  git(fx.repo, 'update-ref', 'refs/remotes/origin/main', 'HEAD~1');
  git(fx.repo, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
  git(fx.repo, 'config', 'remote.origin.url', 'https://example.invalid/app.git');
  git(fx.repo, 'config', 'remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*');
  git(fx.repo, 'config', 'branch.main.remote', 'origin');
  git(fx.repo, 'config', 'branch.main.merge', 'refs/heads/main');
}

describe.each(['legacy', 'modern'] as const)('git_branch, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('lists local branches with tip, current, upstream and ahead/behind', async () => {
    fx = await writeFixture(era);
    addUpstream(fx);
    git(fx.repo, 'branch', 'old', 'HEAD~2');
    const result = await fx.session.callTool('git_branch', {});
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      total: 2,
      branches: [
        {
          name: 'main',
          remote: false,
          sha: rev(fx, 'main'),
          current: true,
          upstream: 'origin/main',
          ahead: 1,
          behind: 0,
          subject: 'commit 3',
          date: '2026-01-01T00:00:00+00:00',
        },
        {
          name: 'old',
          remote: false,
          sha: rev(fx, 'old'),
          current: false,
          subject: 'commit 1',
          date: '2026-01-01T00:00:00+00:00',
        },
      ],
    });
    const text = textOf(result);
    expect(text).toContain(`* main  ${rev(fx, 'main').slice(0, 12)} [origin/main, ahead 1] commit 3`);
    expect(text).toContain('  old  ');
  });

  it('lists remote and all branches, leaving out origin/HEAD', async () => {
    fx = await writeFixture(era);
    addUpstream(fx);
    const remote = await fx.session.callTool('git_branch', { branch_type: 'remote' });
    expect(remote.structuredContent).toMatchObject({
      total: 1,
      branches: [{ name: 'origin/main', remote: true }],
    });
    expect(textOf(remote)).toMatch(/^ {2}origin\/main /);
    const all = await fx.session.callTool('git_branch', { branch_type: 'all' });
    expect(
      (all.structuredContent as { branches: Array<{ name: string }> }).branches.map((b) => b.name),
    ).toEqual(['main', 'origin/main']);
    expect(textOf(all)).toContain('remotes/origin/main');
  });

  it('keeps the branches that contain, or do not contain, a commit', async () => {
    fx = await writeFixture(era);
    git(fx.repo, 'branch', 'old', 'HEAD~2');
    const names = (r: { structuredContent?: unknown }) =>
      (r.structuredContent as { branches: Array<{ name: string }> }).branches.map((b) => b.name);
    expect(names(await fx.session.callTool('git_branch', { contains: 'HEAD~1' }))).toEqual(['main']);
    expect(names(await fx.session.callTool('git_branch', { not_contains: 'HEAD~1' }))).toEqual(['old']);
    expect(names(await fx.session.callTool('git_branch', { contains: rev(fx, 'HEAD~2') }))).toEqual([
      'main',
      'old',
    ]);
  });

  it('refuses options and unknown commits in contains and not_contains', async () => {
    fx = await writeFixture(era);
    for (const value of [
      '--output=/tmp/x',
      '-D',
      '--format=%(objectname)',
      'nope',
      'HEAD --',
      'a\0b',
      'x'.repeat(2000),
    ]) {
      for (const key of ['contains', 'not_contains']) {
        const result = await fx.session.callTool('git_branch', { [key]: value });
        expect(result.isError, `${key}=${value.slice(0, 20)}`).toBe(true);
        expect(textOf(result).split('\n')).toHaveLength(1);
      }
    }
  });

  it('cannot be fooled by a forged commit message with NUL bytes and newlines', async () => {
    fx = await writeFixture(era);
    const tree = rev(fx, 'HEAD^{tree}');
    const body = `tree ${tree}\nauthor A <a@b> 1767225600 +0000\ncommitter A <a@b> 1767225600 +0000\n\nevil\0\nrefs/heads/fake\0${'0'.repeat(40)}\0*\0\n`;
    const sha = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin', '--literally'], {
      cwd: fx.repo,
      env: FIXTURE_ENV,
      input: body,
      encoding: 'utf8',
    }).trim();
    git(fx.repo, 'update-ref', 'refs/heads/forged', sha);
    const result = await fx.session.callTool('git_branch', {});
    const branches = (result.structuredContent as { branches: Array<{ name: string; subject: string }> })
      .branches;
    expect(branches.map((b) => b.name)).toEqual(['forged', 'main']);
    expect(branches[0]?.subject).not.toMatch(/[\u0000-\u001f]/);
    expect(textOf(result).split('\n')).toHaveLength(2);
  });

  it('pages a long list with a cursor', async () => {
    fx = await writeFixture(era, { resultPageSize: 2 });
    for (const name of ['a', 'b', 'c']) git(fx.repo, 'branch', name);
    const first = await fx.session.callTool('git_branch', {});
    const page1 = first.structuredContent as {
      branches: Array<{ name: string }>;
      nextCursor?: string;
      total: number;
    };
    expect(page1.branches.map((b) => b.name)).toEqual(['a', 'b']);
    expect(page1.total).toBe(4);
    expect(textOf(first)).toContain(`cursor "${page1.nextCursor}"`);
    const second = await fx.session.callTool('git_branch', { cursor: page1.nextCursor });
    const page2 = second.structuredContent as { branches: Array<{ name: string }>; nextCursor?: string };
    expect(page2.branches.map((b) => b.name)).toEqual(['c', 'main']);
    expect(page2.nextCursor).toBeUndefined();
    const bad = await fx.session.callTool('git_branch', { cursor: 'forged' });
    expect(bad.isError).toBe(true);
  });
});
