/**
 * `git_worktree_list`: the work trees of a repository, from `git worktree list --porcelain -z`.
 * Their paths are host paths, so each is shown in the allowed directories' display form
 * ("repos/app-wt"), or as "<outside allowed directories>", never as it is on the host.
 */
import { realpath } from 'node:fs/promises';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { gitError } from '../git/errors.js';
import { oneLine } from '../git/parse-refs.js';
import { parseWorktrees } from '../git/parse-worktrees.js';

const Worktree = z.object({
  path: z.string().describe('Inside the allowed directories, or "<outside allowed directories>"'),
  head: z.string().optional(),
  branch: z.string().optional(),
  detached: z.boolean(),
  bare: z.boolean(),
  current: z.boolean().describe('The work tree of repo_path'),
  locked: z.boolean(),
  lockedReason: z.string().optional(),
  prunable: z.boolean(),
  prunableReason: z.string().optional(),
});

/** `git_worktree_list`, as text and structured. */
export const gitWorktreeList = defineTool({
  name: 'git_worktree_list',
  title: 'Git worktrees',
  description:
    'Lists the work trees of the repository (the main one and linked ones): path, checked-out branch or commit, ' +
    'and whether each is locked or prunable.',
  input: z.object({
    repo_path: repoPathArg,
  }),
  output: z.object({ worktrees: z.array(Worktree) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ repo_path }, call) {
    const repo = await repositoryOf(call, repo_path);
    const roots = await call.roots();
    let out: string;
    try {
      out = (await repo.run(['worktree', 'list', '--porcelain', '-z'], { signal: call.signal })).stdout;
    } catch (error) {
      throw gitError('Listing work trees', error);
    }
    const worktrees: Array<z.infer<typeof Worktree>> = [];
    for (const record of parseWorktrees(out)) {
      const real = await realpath(record.path).catch(() => record.path);
      const { path: _host, lockedReason, prunableReason, ...rest } = record;
      worktrees.push({
        ...rest,
        path: roots.display(real),
        current: real === repo.top,
        ...(lockedReason ? { lockedReason: oneLine(lockedReason) } : {}),
        ...(prunableReason ? { prunableReason: oneLine(prunableReason) } : {}),
      });
    }
    const lines = worktrees.map((w) => {
      const where = w.branch ? `[${w.branch}]` : w.bare ? '(bare)' : '(detached HEAD)';
      const flags = [w.current ? 'current' : '', w.locked ? 'locked' : '', w.prunable ? 'prunable' : '']
        .filter(Boolean)
        .join(', ');
      return `${w.path}  ${w.head?.slice(0, 12) ?? ''} ${where}${flags ? `  (${flags})` : ''}`;
    });
    return { text: lines.join('\n'), structured: { worktrees } };
  },
});
