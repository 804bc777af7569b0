/**
 * The official `git_add`: stages files. Every path is checked to lie inside the work tree and the
 * allowed directories (no `../..` escape) and passed as a literal pathspec after `--`, so no path
 * is read as an option or a glob. "." stages everything in the work tree, removals included.
 */
import { isUserError, UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { GitFailed } from '../git/errors.js';
import { pathspecs, shown } from '../git/values.js';
import { hiddenPaths, writeError } from '../git/write-errors.js';

/** The official `git_add`; a path .gitignore ignores is reported, not forced in. */
export const gitAdd = defineTool({
  name: 'git_add',
  title: 'Git add',
  description:
    'Stages files for the next commit. Paths are relative to the repository (or absolute inside it); ' +
    '"." stages every change, deletions included. Ignored files are not added.',
  input: z.object({
    repo_path: repoPathArg,
    files: z.array(z.string()).min(1).max(1000).describe('Paths to stage, e.g. ["src/a.ts"] or ["."]'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ repo_path, files }, call) {
    const repo = await repositoryOf(call, repo_path);
    const roots = await call.roots();
    const specs = await pathspecs(repo, roots, files).catch((error: unknown) => {
      // The roots guard names the path it resolved, the work tree's host path included: show its display form.
      if (!isUserError(error)) throw error;
      let message = error.message;
      for (const [path, shownAs] of hiddenPaths(repo, roots)) message = message.split(path).join(shownAs);
      throw new UserError(message);
    });
    const out = await repo.runRaw(['add', '--', ...specs], { signal: call.signal });
    if (out.code !== 0) {
      const ignored = /paths are ignored by one of your \.gitignore files:\n([\s\S]*?)(\nhint:|$)/.exec(
        out.stderr,
      );
      const unmatched = /pathspec ':\(literal\)(.*)' did not match any files/.exec(out.stderr);
      if (unmatched) {
        throw new UserError(
          `Nothing was staged: "${shown(unmatched[1] ?? '')}" matches no file in the work tree; git_status lists the changed files.`,
        );
      }
      if (!ignored) throw writeError('Staging', new GitFailed('add', out), repo, roots);
      const names = (ignored[1] ?? '').split('\n').filter(Boolean).map(shown);
      const listed =
        names.length > 10
          ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`
          : names.join(', ');
      return {
        text:
          `Not staged because .gitignore ignores them: ${listed}; any other paths given were staged. ` +
          'This server does not force ignored files in.',
      };
    }
    const what = files.length === 1 ? `"${shown(files[0] ?? '')}"` : `${files.length} paths`;
    return { text: `Staged ${what}; git_status shows what the next commit holds.` };
  },
});
