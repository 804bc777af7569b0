import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { parseStatus, statusText } from '../git/parse-status.js';

const Entry = z.object({
  path: z.string(),
  from: z.string().optional(),
  staged: z.string(),
  unstaged: z.string(),
});

/** The official `git_status`, with the same text and the state as structured data beside it. */
export const gitStatus = defineTool({
  name: 'git_status',
  title: 'Git status',
  description: 'Shows the working tree status: the branch, staged and unstaged changes, and untracked files.',
  input: z.object({
    repo_path: repoPathArg,
  }),
  output: z.object({
    branch: z.string().nullable(),
    head: z.string().nullable(),
    upstream: z.string().nullable(),
    ahead: z.number(),
    behind: z.number(),
    staged: z.array(Entry),
    unstaged: z.array(Entry),
    untracked: z.array(z.string()),
    conflicted: z.array(z.string()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ repo_path }, call) {
    const repo = await repositoryOf(call, repo_path);
    const out = await repo.run(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'], {
      signal: call.signal,
    });
    const status = parseStatus(out.stdout);
    return { text: statusText(status, 2_000), structured: status };
  },
});
