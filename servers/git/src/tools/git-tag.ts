/**
 * `git_tag`: lists tags (newest first) or creates one at a commit. A new name is checked and the
 * target resolved to a SHA before git sees either; with a message the tag is annotated, the
 * message going on stdin (`-F -`) so it is stored as written. Tags are never signed (the hardening
 * forces `tag.gpgSign` off) and never replace an existing tag.
 */
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, type GitCall, repoPathArg, repositoryOf } from '../context.js';
import { gitError } from '../git/errors.js';
import { checkMessage } from '../git/message.js';
import { pageOf } from '../git/page-list.js';
import { parseTags, recordMarker, tagFormat } from '../git/parse-refs.js';
import type { Repository } from '../git/repository.js';
import { checkNewName, headCommit, resolveCommit, shown } from '../git/values.js';
import { IDENTITY_FROM_CONFIG, writeError } from '../git/write-errors.js';

const Tag = z.object({
  name: z.string(),
  sha: z.string(),
  annotated: z.boolean(),
  date: z.string(),
  subject: z.string(),
});

async function list(repo: Repository, call: GitCall, cursor: string | undefined) {
  const marker = recordMarker();
  let out: string;
  try {
    out = (
      await repo.run(['for-each-ref', '--sort=-creatordate', tagFormat(marker), '--', 'refs/tags'], {
        signal: call.signal,
      })
    ).stdout;
  } catch (error) {
    throw gitError('Listing tags', error);
  }
  const all = parseTags(out, marker);
  const { page, nextCursor, more } = pageOf(all, {
    app: call.app,
    tool: 'git_tag',
    cursor,
    keyOf: (t) => t.name,
  });
  const lines = page.map(
    (t) =>
      `${t.name}  ${t.sha.slice(0, 12)}  ${t.date.slice(0, 10)}  ${t.annotated ? '(annotated) ' : ''}${t.subject}`,
  );
  if (more) lines.push(more);
  return {
    text: lines.length > 0 ? lines.join('\n') : 'There are no tags.',
    structured: { tags: page, total: all.length, ...(nextCursor ? { nextCursor } : {}) },
  };
}

async function create(
  repo: Repository,
  call: GitCall,
  name: string,
  target: string | undefined,
  message: string | undefined,
) {
  const roots = await call.roots();
  const signal = call.signal;
  const sha =
    target === undefined
      ? await headCommit(repo, signal)
      : await resolveCommit(repo, 'target', target, signal);
  if (!sha)
    throw new UserError('The repository has no commit yet, so there is nothing to tag; commit first.');
  const args =
    message === undefined
      ? ['tag', '--no-sign', '--', name, sha]
      : [
          ...IDENTITY_FROM_CONFIG,
          'tag',
          '--annotate',
          '--no-sign',
          '--cleanup=whitespace',
          '-F',
          '-',
          '--',
          name,
          sha,
        ];
  try {
    await repo.run(args, { signal, ...(message !== undefined ? { input: message } : {}) });
  } catch (error) {
    throw writeError(`Creating tag "${name}"`, error, repo, roots);
  }
  const marker = recordMarker();
  const made = await repo.runRaw(['for-each-ref', tagFormat(marker), '--', `refs/tags/${name}`], { signal });
  const tags = parseTags(made.stdout, marker).filter((t) => t.name === name);
  return {
    text: `Created ${message === undefined ? 'lightweight' : 'annotated'} tag "${name}" at ${sha}${target === undefined ? ' (HEAD)' : ` ("${shown(target)}")`}.`,
    structured: { tags, total: tags.length },
  };
}

/**
 * `git_tag`. Not read-only as a whole (create writes), so `--read-only` hides it, listing included;
 * not destructive: it never moves or deletes a tag.
 */
export const gitTag = defineTool({
  name: 'git_tag',
  title: 'Git tags',
  description:
    'Lists tags, newest first ("list"), or creates one ("create") at target (default HEAD): annotated when a ' +
    'message is given, lightweight otherwise. An existing tag is never replaced.',
  input: z.object({
    repo_path: repoPathArg,
    action: z.enum(['list', 'create']).default('list').describe('What to do'),
    name: z.string().optional().describe('create: the new tag\'s name, e.g. "v1.2.0"'),
    target: z.string().optional().describe('create: the commit to tag (a ref or hash); default HEAD'),
    message: z.string().optional().describe('create: the message of an annotated tag'),
    cursor: z.string().optional().describe('list: the nextCursor of the previous page, to continue'),
  }),
  output: z.object({
    tags: z.array(Tag).describe('list: this page of tags; create: the new tag'),
    total: z.number(),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ repo_path, action, name, target, message, cursor }, call) {
    if (action === 'list') {
      if (name !== undefined || target !== undefined || message !== undefined) {
        throw new UserError('name, target and message go with action "create"; leave them out to list tags.');
      }
      return list(await repositoryOf(call, repo_path), call, cursor);
    }
    if (name === undefined) throw new UserError('Give the name of the tag to create.');
    checkNewName('tag name', name);
    if (message !== undefined) checkMessage('tag message', message);
    return create(await repositoryOf(call, repo_path), call, name, target, message);
  },
});
