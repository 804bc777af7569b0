/**
 * The official `git_reset`: unstages everything (the index goes back to HEAD), keeping every change
 * in the work tree. Never `--hard`. Says which paths it unstaged.
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { DIFF_SAFETY } from '../git/hardening.js';
import { shown } from '../git/values.js';
import { writeError } from '../git/write-errors.js';

/**
 * The official `git_reset`. Marked destructive: a staged version of a file that differs from the
 * work tree (a partly staged file) exists only in the index, and unstaging drops it.
 */
export const gitReset = defineTool({
  name: 'git_reset',
  title: 'Git reset (unstage all)',
  description:
    'Unstages all staged changes; the files in the work tree keep their changes. Nothing is committed or discarded from disk.',
  input: z.object({
    repo_path: repoPathArg,
  }),
  output: z.object({
    unstaged: z.array(z.string()).describe('The paths that were staged before (the first 1000)'),
    total: z.number().describe('How many paths were staged before'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ repo_path }, call) {
    const repo = await repositoryOf(call, repo_path);
    const roots = await call.roots();
    const signal = call.signal;
    const staged = await repo.runRaw(
      ['diff', '--cached', '--name-only', '-z', '--no-renames', ...DIFF_SAFETY],
      {
        signal,
      },
    );
    const unstaged = staged.code === 0 ? staged.stdout.split('\0').filter(Boolean) : [];
    try {
      await repo.run(['reset', '--quiet', '--mixed'], { signal });
    } catch (error) {
      throw writeError('Unstaging', error, repo, roots);
    }
    const structured = { unstaged: unstaged.slice(0, 1000), total: unstaged.length };
    if (unstaged.length === 0) return { text: 'Nothing was staged.', structured };
    const names = unstaged.slice(0, 20).map(shown).join(', ');
    const more = unstaged.length > 20 ? ` and ${unstaged.length - 20} more` : '';
    return {
      text: `Unstaged ${unstaged.length} path${unstaged.length === 1 ? '' : 's'}: ${names}${more}. The work tree is unchanged.`,
      structured,
    };
  },
});
