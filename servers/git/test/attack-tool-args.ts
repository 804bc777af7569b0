/**
 * The argument table of the tool attack corpus: for every tool, a call that is valid on the
 * hostile repository (see `hostile-repo.ts`: branches main, feature and side, tags v1 and
 * v1-signed, a staged change to src/main.ts, an unstaged one to notes.txt, untracked.txt), and
 * what each of its string arguments is, which decides what an injected value must do. A tool
 * listed in src/tools/index.ts without an entry here fails the corpus: no tool skips it.
 */
import * as z from 'zod';

/**
 * What a string argument is. `repo`, `ref`, `name`, `date`, `cursor`: every injected value is an
 * error. `path`: an error too, except a plain odd name inside the work tree (`HEAD --`,
 * `:(top)../x` taken literally), which may match nothing. `text` (a message): may be stored as
 * written; it only must not act.
 */
export type ArgKind = 'repo' | 'ref' | 'name' | 'path' | 'text' | 'date' | 'cursor';

export interface ToolCase {
  /** A valid call on the hostile repository, without `repo_path` (the test adds it). */
  readonly valid: Readonly<Record<string, unknown>>;
  /** Every string or string-array argument of the tool's input, by kind. */
  readonly kinds: Readonly<Record<string, ArgKind>>;
  /** Why the valid call may end in an error on the hostile repository (else it must succeed). */
  readonly mayFail?: string;
  /** Per-call values that keep a repeated write valid (a new tag or branch name each time). */
  readonly fresh?: (i: number) => Readonly<Record<string, unknown>>;
  /** A different valid call for an argument only another action reads (a list cursor). */
  readonly argBase?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

const repo = { repo_path: 'repo' } as const;
const diff = { paths: 'path', cursor: 'cursor' } as const;
const listCursor = { cursor: { action: 'list' } };

/** The table, keyed by tool name. */
export const TOOL_CASES: Readonly<Record<string, ToolCase>> = {
  git_status: { valid: {}, kinds: { ...repo } },
  git_diff_unstaged: { valid: { paths: ['notes.txt'] }, kinds: { ...repo, ...diff } },
  git_diff_staged: { valid: {}, kinds: { ...repo, ...diff } },
  git_diff: { valid: { target: 'v1' }, kinds: { ...repo, ...diff, target: 'ref' } },
  git_show: { valid: { revision: 'HEAD' }, kinds: { ...repo, ...diff, revision: 'ref' } },
  git_log: {
    valid: { ref: 'main', path: 'notes.txt', start_timestamp: '2020-01-01', end_timestamp: '2100-01-01' },
    kinds: {
      ...repo,
      ref: 'ref',
      path: 'path',
      start_timestamp: 'date',
      end_timestamp: 'date',
      cursor: 'cursor',
    },
  },
  git_blame: { valid: { path: 'notes.txt', ref: 'HEAD' }, kinds: { ...repo, path: 'path', ref: 'ref' } },
  git_reflog: { valid: { ref: 'HEAD' }, kinds: { ...repo, ref: 'ref', cursor: 'cursor' } },
  git_branch: {
    valid: { branch_type: 'all', contains: 'v1' },
    kinds: { ...repo, contains: 'ref', not_contains: 'ref', cursor: 'cursor' },
  },
  git_tag: {
    valid: { action: 'create', name: 'attack-tag', target: 'HEAD', message: 'annotated' },
    kinds: { ...repo, name: 'name', target: 'ref', message: 'text', cursor: 'cursor' },
    fresh: (i) => ({ name: `attack-tag-${i}` }),
    argBase: listCursor,
  },
  git_worktree_list: { valid: {}, kinds: { ...repo } },
  git_add: { valid: { files: ['notes.txt', 'untracked.txt'] }, kinds: { ...repo, files: 'path' } },
  git_reset: { valid: {}, kinds: { ...repo } },
  git_commit: { valid: { message: 'Attack commit' }, kinds: { ...repo, message: 'text' } },
  git_create_branch: {
    valid: { branch_name: 'attack-branch', base_branch: 'feature' },
    kinds: { ...repo, branch_name: 'name', base_branch: 'ref' },
    fresh: (i) => ({ branch_name: `attack-branch-${i}` }),
  },
  git_checkout: { valid: { branch_name: 'side' }, kinds: { ...repo, branch_name: 'ref' } },
  git_stash: {
    valid: { action: 'push', message: 'wip', include_untracked: true },
    kinds: { ...repo, message: 'text', cursor: 'cursor' },
    argBase: listCursor,
  },
  git_generate_commit_message: { valid: { confirm: true }, kinds: { ...repo, hint: 'text' } },
};

/** Values that are not options and stay inside the work tree: a path argument may take them literally. */
export const PLAIN_INSIDE = new Set(['HEAD --', 'pathspec magic']);

/** Whether an injected value (by label) must make a call with an argument of `kind` fail. */
export function mustFail(kind: ArgKind, label: string): boolean {
  if (kind === 'text') return false;
  if (kind === 'path') return !PLAIN_INSIDE.has(label);
  return true;
}

/** A tool's string and string-array arguments (enums excluded: the schema itself refuses other values). */
export function stringArgs(input: unknown): Map<string, 'string' | 'array'> {
  const schema = z.toJSONSchema(input as z.ZodObject, { io: 'input' }) as {
    properties?: Record<
      string,
      { type?: string; enum?: unknown[]; items?: { type?: string; enum?: unknown[] } }
    >;
  };
  const found = new Map<string, 'string' | 'array'>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (prop.type === 'string' && !prop.enum) found.set(name, 'string');
    if (prop.type === 'array' && prop.items?.type === 'string' && !prop.items.enum) found.set(name, 'array');
  }
  return found;
}
