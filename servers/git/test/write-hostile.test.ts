import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { hostileRepo } from './hostile-repo.js';
import { git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

/** Every write and ref tool, in the order a session might use them, on one hostile repository. */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['git_branch', { branch_type: 'all' }],
  ['git_tag', { action: 'list' }],
  ['git_worktree_list', {}],
  ['git_stash', { action: 'list' }],
  ['git_add', { files: ['notes.txt', 'data.dat', 'README.md'] }],
  ['git_add', { files: ['.'] }],
  ['git_commit', { message: 'hostile commit' }],
  ['git_tag', { action: 'create', name: 'v9', message: 'annotated' }],
  ['git_tag', { action: 'create', name: 'v9-light' }],
  ['git_create_branch', { branch_name: 'topic', base_branch: 'feature' }],
  ['git_checkout', { branch_name: 'topic' }],
  ['git_checkout', { branch_name: 'main' }],
  ['git_stash', { action: 'push', include_untracked: true }],
  ['git_stash', { action: 'pop' }],
  ['git_reset', {}],
];

describe.each(['legacy', 'modern'] as const)('write and ref tools on a hostile repository, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('run no program the repository names', async () => {
    fx = await writeFixture(era);
    const hostile = await hostileRepo(join(fx.base, 'repos', 'hostile'), join(fx.outside, 'markers'));
    await writeFile(join(hostile.repo, 'notes.txt'), 'line one\nstaged by the tool\n');
    const answers: string[] = [];
    for (const [tool, args] of CALLS) {
      if (args.action === 'push') await writeFile(join(hostile.repo, 'notes.txt'), 'line one\nto stash\n');
      const result = await fx.session.callTool(tool, { repo_path: hostile.repo, ...args });
      answers.push(`${tool}: ${result.isError ? 'error' : 'ok'}: ${textOf(result).split('\n')[0]}`);
      expect(textOf(result)).not.toContain(fx.base);
    }
    expect(await hostile.markers()).toEqual([]);
    // The tools did their work: the commit, the tags and the branch exist; pop was refused.
    expect(git(hostile.repo, 'log', '-1', '--format=%s', 'main')).toBe('hostile commit\n');
    expect(git(hostile.repo, 'tag', '-l', 'v9*')).toBe('v9\nv9-light\n');
    expect(git(hostile.repo, 'cat-file', 'tag', 'v9')).not.toContain('BEGIN PGP');
    expect(answers.find((a) => a.startsWith('git_stash: error'))).toContain('merge driver');
    expect(answers.filter((a) => a.includes(': error:'))).toHaveLength(1);
  });
});
