/**
 * `git_stash`: lists the stash, saves the uncommitted changes to it (push), or applies and drops
 * the newest entry (pop). A message goes as the single argument after `-m`, stored as written.
 * Popping merges, and a merge runs the merge drivers a repository's configuration declares: a
 * repository that declares one is refused, since emptying a driver would silently keep one side.
 */
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, type GitCall, repoPathArg, repositoryOf } from '../context.js';
import { GitFailed } from '../git/errors.js';
import { checkMessage } from '../git/message.js';
import { pageOf } from '../git/page-list.js';
import { parseStashes, recordMarker, stashFormat } from '../git/parse-refs.js';
import type { Repository } from '../git/repository.js';
import { headCommit, shown } from '../git/values.js';
import { IDENTITY_FROM_CONFIG, writeError } from '../git/write-errors.js';

const Entry = z.object({ name: z.string(), sha: z.string(), date: z.string(), message: z.string() });

/** The newest stash commit, or undefined when the stash is empty. */
async function stashTop(repo: Repository, signal: AbortSignal): Promise<string | undefined> {
  const out = await repo.runRaw(['rev-parse', '--verify', '--quiet', 'refs/stash'], { signal });
  return out.code === 0 ? out.stdout.trim() : undefined;
}

async function list(repo: Repository, call: GitCall, cursor: string | undefined) {
  const marker = recordMarker();
  const out = (await stashTop(repo, call.signal))
    ? (
        await repo.run(
          ['log', '--walk-reflogs', '--no-show-signature', stashFormat(marker), 'refs/stash', '--'],
          {
            signal: call.signal,
          },
        )
      ).stdout
    : '';
  const all = parseStashes(out, marker);
  const { page, nextCursor, more } = pageOf(all, {
    app: call.app,
    tool: 'git_stash',
    cursor,
    keyOf: (e) => e.sha,
  });
  const lines = page.map((e) => `${e.name}  ${e.sha.slice(0, 12)}  ${e.date}  ${e.message}`);
  if (more) lines.push(more);
  return {
    text: lines.length > 0 ? lines.join('\n') : 'The stash is empty.',
    structured: {
      action: 'list' as const,
      entries: page,
      total: all.length,
      ...(nextCursor ? { nextCursor } : {}),
    },
  };
}

async function push(repo: Repository, call: GitCall, message: string | undefined, untracked: boolean) {
  const roots = await call.roots();
  const before = await stashTop(repo, call.signal);
  const args = [...IDENTITY_FROM_CONFIG, 'stash', 'push', '--quiet'];
  if (untracked) args.push('--include-untracked');
  if (message !== undefined) args.push('-m', checkMessage('stash message', message, { oneLine: true }));
  try {
    await repo.run(args, { signal: call.signal });
  } catch (error) {
    // Git's own words for it carry no "fatal:" or "error:", which left only an exit code.
    if (!before && !call.signal.aborted && (await headCommit(repo, call.signal)) === undefined) {
      throw new UserError(
        'The repository has no commit yet, so there is nothing to stash against; commit first.',
      );
    }
    throw writeError('Stashing', error, repo, roots);
  }
  const after = await stashTop(repo, call.signal);
  if (!after || after === before) {
    return {
      text: `There were no local changes to stash${untracked ? '' : ' (untracked files are only stashed with include_untracked)'}.`,
      structured: { action: 'push' as const, entries: [], total: 0 },
    };
  }
  return {
    text: `Saved the uncommitted changes as stash@{0} (${after}); the work tree is clean again. Pop it with action "pop".`,
    structured: { action: 'push' as const, entries: [], total: 1 },
  };
}

async function pop(repo: Repository, call: GitCall) {
  const roots = await call.roots();
  const signal = call.signal;
  if (!(await stashTop(repo, signal))) throw new UserError('The stash is empty; there is nothing to pop.');
  const drivers = await repo.runRaw(
    ['config', '--includes', '--name-only', '--get-regexp', '^merge\\..+\\.driver$'],
    {
      signal,
    },
  );
  if (drivers.code === 0 && drivers.stdout.trim() !== '') {
    const names = drivers.stdout.trim().split('\n').slice(0, 3).map(shown).join(', ');
    throw new UserError(
      `This repository's configuration declares a merge driver (${names}), a program that popping the stash could run; pop it with git yourself if you trust the repository.`,
    );
  }
  const out = await repo.runRaw(['stash', 'pop'], { signal });
  if (out.code !== 0) {
    const conflicts = await repo.runRaw(['ls-files', '--unmerged', '-z'], { signal });
    const files = new Set(
      conflicts.stdout
        .split('\0')
        .map((record) => record.split('\t')[1])
        .filter((name): name is string => Boolean(name)),
    );
    if (files.size > 0) {
      const names = [...files].slice(0, 5).map(shown).join(', ');
      throw new UserError(
        `Popping the stash conflicted in ${files.size} file${files.size === 1 ? '' : 's'} (${names}); the entry was kept in the stash. Resolve the conflict markers, then stage the files with git_add.`,
      );
    }
    throw writeError('Popping the stash', new GitFailed('stash', out), repo, roots);
  }
  return {
    text: 'Applied the newest stash entry to the work tree and dropped it from the stash; git_status shows the changes.',
    structured: { action: 'pop' as const, entries: [], total: 0 },
  };
}

/**
 * `git_stash`. Marked destructive: push and pop rewrite files in the work tree (the changes are
 * kept in the stash, but a pop that conflicts leaves conflict markers in files).
 */
export const gitStash = defineTool({
  name: 'git_stash',
  title: 'Git stash',
  description:
    'Lists, saves or restores uncommitted changes on the stash. "list" shows the entries; "push" saves the uncommitted changes (with include_untracked, ' +
    'untracked files too) and cleans the work tree; "pop" applies the newest entry and drops it.',
  input: z.object({
    repo_path: repoPathArg,
    action: z.enum(['list', 'push', 'pop']).describe('What to do'),
    message: z.string().optional().describe('push: a one-line description of the entry'),
    include_untracked: z.boolean().default(false).describe('push: stash untracked files too'),
    cursor: z.string().optional().describe('list: the nextCursor of the previous page, to continue'),
  }),
  output: z.object({
    action: z.enum(['list', 'push', 'pop']),
    entries: z.array(Entry).describe('list: the entries of this page, newest first'),
    total: z.number().describe('list: how many entries the stash holds; push: 1 when an entry was made'),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run({ repo_path, action, message, include_untracked, cursor }, call) {
    if (action !== 'push' && message !== undefined) {
      throw new UserError('A message only goes with action "push"; leave it out for "list" and "pop".');
    }
    const repo = await repositoryOf(call, repo_path);
    if (action === 'list') return list(repo, call, cursor);
    if (action === 'push') return push(repo, call, message, include_untracked);
    return pop(repo, call);
  },
});
