import { gitAdd } from './git-add.js';
import { gitBlame } from './git-blame.js';
import { gitBranch } from './git-branch.js';
import { gitCheckout } from './git-checkout.js';
import { gitCommit } from './git-commit.js';
import { gitCreateBranch } from './git-create-branch.js';
import { gitDiff } from './git-diff.js';
import { gitDiffStaged } from './git-diff-staged.js';
import { gitDiffUnstaged } from './git-diff-unstaged.js';
import { gitGenerateCommitMessage } from './git-generate-commit-message.js';
import { gitLog } from './git-log.js';
import { gitReflog } from './git-reflog.js';
import { gitReset } from './git-reset.js';
import { gitShow } from './git-show.js';
import { gitStash } from './git-stash.js';
import { gitStatus } from './git-status.js';
import { gitTag } from './git-tag.js';
import { gitWorktreeList } from './git-worktree-list.js';

/** Every tool of the git server; core hides the ones that are not read-only under --read-only. */
export const tools = [
  gitStatus,
  gitDiffUnstaged,
  gitDiffStaged,
  gitDiff,
  gitLog,
  gitShow,
  gitBlame,
  gitReflog,
  gitAdd,
  gitCommit,
  gitReset,
  gitBranch,
  gitCreateBranch,
  gitCheckout,
  gitStash,
  gitTag,
  gitWorktreeList,
  gitGenerateCommitMessage,
];
