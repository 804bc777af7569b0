/**
 * The write and ref tools' fixture: the real app on the fixture every git test uses
 * (`base/repos/app` with three commits, `base/outside` beside it), connected in one era. Its git
 * commands read no global configuration (`/dev/null`), so who commits comes from the fixture
 * repository alone and the identity tests behave the same on a host that has an identity of its own.
 */

import { connect, type TestSession } from '@mcpkit/core/testing';
import { git, type RepoFixture, repoFixture } from './repo-kit.js';

/** The tools these tests are about: the ones that write, and the ref listings beside them. */
export const WRITE_TOOLS = [
  'git_commit',
  'git_add',
  'git_reset',
  'git_create_branch',
  'git_checkout',
  'git_branch',
  'git_stash',
  'git_tag',
  'git_worktree_list',
];

export interface WriteFixture extends RepoFixture {
  session: TestSession;
  /** `git log --format=%s` of the fixture repository, newest first. */
  subjects(): string[];
  /** `git status --porcelain` lines of the fixture repository. */
  status(): string[];
}

/** The fixture with the git app on it, connected in `era`. */
export async function writeFixture(
  era: 'legacy' | 'modern',
  options: { readOnly?: boolean; resultPageSize?: number } = {},
): Promise<WriteFixture> {
  const fx = await repoFixture({ globalConfigFile: '/dev/null', ...options });
  const session = await connect(fx.app, { era });
  return {
    ...fx,
    session,
    subjects: () => git(fx.repo, 'log', '--format=%s').trim().split('\n'),
    status: () => git(fx.repo, 'status', '--porcelain').split('\n').filter(Boolean),
    async cleanup() {
      await session.close();
      await fx.cleanup();
    },
  };
}
