import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from './repo-kit.js';
import { WRITE_TOOLS, type WriteFixture, writeFixture } from './write-kit.js';

type Listing = { worktrees: Array<Record<string, unknown>> };

describe.each(['legacy', 'modern'] as const)('git_worktree_list, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('lists the work trees with display paths, never host paths', async () => {
    fx = await writeFixture(era);
    const head = git(fx.repo, 'rev-parse', 'HEAD').trim();
    git(fx.repo, 'worktree', 'add', '-q', join(fx.base, 'repos', 'app-wt'), '-b', 'wt');
    git(fx.repo, 'worktree', 'add', '-q', '--detach', join(fx.base, 'repos', 'app-detached'), 'HEAD~1');
    await mkdir(join(fx.outside, 'elsewhere'));
    git(fx.repo, 'worktree', 'add', '-q', join(fx.outside, 'elsewhere', 'wt2'), '-b', 'far');
    git(fx.repo, 'worktree', 'lock', '--reason', 'on a\tusb disk', join(fx.base, 'repos', 'app-wt'));
    const result = await fx.session.callTool('git_worktree_list', {});
    expect(result.isError).toBeFalsy();
    const { worktrees } = result.structuredContent as Listing;
    expect(worktrees).toHaveLength(4);
    expect(worktrees[0]).toMatchObject({ path: 'repos/app', current: true });
    expect(worktrees).toEqual(
      expect.arrayContaining([
        {
          path: 'repos/app',
          head,
          branch: 'main',
          detached: false,
          bare: false,
          current: true,
          locked: false,
          prunable: false,
        },
        {
          path: 'repos/app-wt',
          head,
          branch: 'wt',
          detached: false,
          bare: false,
          current: false,
          locked: true,
          lockedReason: 'on a usb disk',
          prunable: false,
        },
        {
          path: 'repos/app-detached',
          head: git(fx.repo, 'rev-parse', 'HEAD~1').trim(),
          detached: true,
          bare: false,
          current: false,
          locked: false,
          prunable: false,
        },
        {
          path: '<outside allowed directories>',
          head,
          branch: 'far',
          detached: false,
          bare: false,
          current: false,
          locked: false,
          prunable: false,
        },
      ]),
    );
    const text = textOf(result);
    expect(text).not.toContain(fx.base);
    expect(text).toContain('repos/app  ');
    expect(text).toContain('(current)');
    expect(text).toContain('(detached HEAD)');
  });

  it('marks the current work tree when called from a linked one', async () => {
    fx = await writeFixture(era);
    const linked = join(fx.base, 'repos', 'app-wt');
    git(fx.repo, 'worktree', 'add', '-q', linked, '-b', 'wt');
    const result = await fx.session.callTool('git_worktree_list', { repo_path: linked });
    const { worktrees } = result.structuredContent as Listing;
    expect(worktrees.map((w) => [w.path, w.current])).toEqual([
      ['repos/app', false],
      ['repos/app-wt', true],
    ]);
  });
});

describe('under --read-only', () => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('only the read-only tools are offered: git_stash and git_tag, which also write, are hidden', async () => {
    fx = await writeFixture('modern', { readOnly: true });
    const { tools } = await fx.session.client.listTools();
    expect(
      tools
        .map((t) => t.name)
        .filter((n) => WRITE_TOOLS.includes(n))
        .sort(),
    ).toEqual(['git_branch', 'git_worktree_list']);
  });

  it('every tool declares honest annotations', async () => {
    fx = await writeFixture('legacy');
    const { tools } = await fx.session.client.listTools();
    const hints = Object.fromEntries(
      tools
        .filter((t) => WRITE_TOOLS.includes(t.name))
        .map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint ?? null]]),
    );
    expect(hints).toEqual({
      git_add: [false, false],
      git_branch: [true, null],
      git_checkout: [false, false],
      git_commit: [false, false],
      git_create_branch: [false, false],
      git_reset: [false, true],
      git_stash: [false, true],
      git_tag: [false, false],
      git_worktree_list: [true, null],
    });
  });
});
