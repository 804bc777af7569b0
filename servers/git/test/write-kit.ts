/**
 * A test app with only the write and ref tools (src/tools/index.ts belongs to the lead), on the
 * same fixture as every git test: `base/repos/app` with three commits, `base/outside` beside it.
 */

import { RootSet } from '@mcpkit/core/roots';
import { createApp } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import type { GitContext } from '../src/context.js';
import { gitAdd } from '../src/tools/git-add.js';
import { gitBranch } from '../src/tools/git-branch.js';
import { gitCheckout } from '../src/tools/git-checkout.js';
import { gitCommit } from '../src/tools/git-commit.js';
import { gitCreateBranch } from '../src/tools/git-create-branch.js';
import { gitReset } from '../src/tools/git-reset.js';
import { gitStash } from '../src/tools/git-stash.js';
import { gitTag } from '../src/tools/git-tag.js';
import { gitWorktreeList } from '../src/tools/git-worktree-list.js';
import { git, type RepoFixture, repoFixture } from './repo-kit.js';

/** The tools under test. */
export const WRITE_TOOLS = [
  gitCommit,
  gitAdd,
  gitReset,
  gitCreateBranch,
  gitCheckout,
  gitBranch,
  gitStash,
  gitTag,
  gitWorktreeList,
];

export interface WriteFixture extends RepoFixture {
  session: TestSession;
  /** `git log --format=%s` of the fixture repository, newest first. */
  subjects(): string[];
  /** `git status --porcelain` lines of the fixture repository. */
  status(): string[];
}

/** The fixture with an app serving {@link WRITE_TOOLS}, connected in `era`. */
export async function writeFixture(
  era: 'legacy' | 'modern',
  options: { readOnly?: boolean; resultPageSize?: number } = {},
): Promise<WriteFixture> {
  const fx = await repoFixture();
  const app = createApp<GitContext>(
    {
      name: 't',
      version: '0',
      tools: WRITE_TOOLS,
      context: {
        create: () => ({
          defaultRepository: fx.repo,
          repositories: { globalConfig: async () => '/dev/null', allowedKeys: new Set(), facts: new Map() },
        }),
      },
    },
    { roots: await RootSet.create([`${fx.base}/repos`]), ...options },
  );
  const session = await connect(app, { era });
  return {
    ...fx,
    app: fx.app,
    session,
    subjects: () => git(fx.repo, 'log', '--format=%s').trim().split('\n'),
    status: () => git(fx.repo, 'status', '--porcelain').split('\n').filter(Boolean),
    async cleanup() {
      await session.close();
      await app.close();
      await fx.cleanup();
    },
  };
}
