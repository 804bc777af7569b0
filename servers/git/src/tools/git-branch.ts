/**
 * The official `git_branch`: lists local, remote or all branches, optionally only those that
 * contain (or do not contain) a commit. Read with `for-each-ref` and a format of our own (see
 * `parse-refs.ts`), so a ref name or a subject cannot forge an entry; `contains` and
 * `not_contains` are resolved to SHAs first. Pages through long lists.
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { gitError } from '../git/errors.js';
import { pageOf } from '../git/page-list.js';
import { type BranchInfo, branchFormat, parseBranches, recordMarker } from '../git/parse-refs.js';
import { resolveCommit } from '../git/values.js';

const Branch = z.object({
  name: z.string(),
  remote: z.boolean(),
  sha: z.string(),
  current: z.boolean(),
  upstream: z.string().optional(),
  ahead: z.number().optional(),
  behind: z.number().optional(),
  upstreamGone: z.boolean().optional(),
  subject: z.string(),
  date: z.string(),
});

const PLACES = {
  local: ['refs/heads'],
  remote: ['refs/remotes'],
  all: ['refs/heads', 'refs/remotes'],
} as const;

/** One line of the text listing: `* main  1a2b3c4d [ahead 1] subject`. */
function line(b: BranchInfo, prefixRemotes: boolean): string {
  const track = b.upstreamGone
    ? ` [${b.upstream}: gone]`
    : b.upstream
      ? ` [${b.upstream}${b.ahead ? `, ahead ${b.ahead}` : ''}${b.behind ? `, behind ${b.behind}` : ''}]`
      : '';
  return `${b.current ? '*' : ' '} ${b.remote && prefixRemotes ? `remotes/${b.name}` : b.name}  ${b.sha.slice(0, 12)}${track} ${b.subject}`;
}

/** The official `git_branch`, with each branch's tip, upstream and ahead/behind counts as structured data. */
export const gitBranch = defineTool({
  name: 'git_branch',
  title: 'Git branches',
  description:
    'Lists branches: local (default), remote or all, with their tip commit and upstream. ' +
    'contains / not_contains keep only the branches that do (or do not) contain a commit.',
  input: z.object({
    repo_path: repoPathArg,
    branch_type: z.enum(['local', 'remote', 'all']).default('local').describe('Which branches to list'),
    contains: z.string().optional().describe('Only branches that contain this commit (a ref or hash)'),
    not_contains: z.string().optional().describe('Only branches that do not contain this commit'),
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
  }),
  output: z.object({ branches: z.array(Branch), total: z.number(), nextCursor: z.string().optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ repo_path, branch_type, contains, not_contains, cursor }, call) {
    const repo = await repositoryOf(call, repo_path);
    const signal = call.signal;
    const filters: string[] = [];
    if (contains !== undefined)
      filters.push(`--contains=${await resolveCommit(repo, 'contains', contains, signal)}`);
    if (not_contains !== undefined) {
      filters.push(`--no-contains=${await resolveCommit(repo, 'not_contains', not_contains, signal)}`);
    }
    const marker = recordMarker();
    let out: string;
    try {
      out = (
        await repo.run(['for-each-ref', branchFormat(marker), ...filters, '--', ...PLACES[branch_type]], {
          signal,
        })
      ).stdout;
    } catch (error) {
      throw gitError('Listing branches', error);
    }
    const all = parseBranches(out, marker);
    const { page, nextCursor, more } = pageOf(all, {
      app: call.app,
      tool: 'git_branch',
      cursor,
      keyOf: (b) => `${b.remote ? 'r' : 'l'}:${b.name}`,
    });
    const lines = page.map((b) => line(b, branch_type === 'all'));
    if (more) lines.push(more);
    return {
      text:
        lines.length > 0
          ? lines.join('\n')
          : `No ${branch_type === 'all' ? '' : `${branch_type} `}branches match.`,
      structured: { branches: page, total: all.length, ...(nextCursor ? { nextCursor } : {}) },
    };
  },
});
