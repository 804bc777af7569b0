/**
 * `git_blame` (not in the official server): who last changed each line of a file, at a ref or in
 * the work tree. `--no-textconv` because textconv still ran on blame with all other hardening on,
 * and `--no-ignore-revs-file` because the configuration's list of revisions to skip is a file path;
 * the path is checked like a pathspec and given after `--`; the ref is resolved to its SHA (blame
 * on git 2.39 does not take `--end-of-options`, so only a SHA may stand where the revision goes).
 * A file whose blame is larger than one result is paged by line: the result names the start_line
 * to continue from. Progress counts the lines git has settled so far (see `blame-run.ts`).
 */
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { blame } from '../git/blame-run.js';
import { type BlameLine, blameText } from '../git/parse-blame.js';
import { headCommit, pathspecs, resolveCommit, shown } from '../git/values.js';

const Line = z.object({
  line: z.number(),
  sha: z.string().describe('Forty zeros for a line not committed yet'),
  author: z.string(),
  date: z.string(),
  summary: z.string(),
  text: z.string(),
});

/** Blame of one file, line by line, grouped by commit in the text. */
export const gitBlame = defineTool({
  name: 'git_blame',
  title: 'Git blame',
  description:
    'Shows, for each line of a file, the commit that last changed it: hash, author, date and subject. Blames ' +
    'the working tree file, or the file at ref; limit to start_line..end_line for long files.',
  input: z.object({
    repo_path: repoPathArg,
    path: z.string().describe('The file, relative to the work tree'),
    ref: z.string().optional().describe('The branch, tag or commit to blame at; default: the working tree'),
    start_line: z.number().int().min(1).optional().describe('First line (from 1)'),
    end_line: z.number().int().min(1).optional().describe('Last line, included'),
  }),
  output: z.object({
    path: z.string(),
    lines: z.array(Line),
    nextStartLine: z.number().optional().describe('Where the next page starts, when the blame was cut'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run({ repo_path, path, ref, start_line, end_line }, call) {
    const repo = await repositoryOf(call, repo_path);
    const [spec = ''] = await pathspecs(repo, await call.roots(), [path]);
    // blame takes a path, not a pathspec: the checked path without its `:(literal)` magic.
    const file = spec.replace(/^:\(literal\)/, '');
    if (file === '.') throw new UserError('Give the path of a file to blame, not the work tree itself.');
    if (start_line !== undefined && end_line !== undefined && end_line < start_line) {
      throw new UserError(
        `end_line ${end_line} is before start_line ${start_line}; give a range that runs forward.`,
      );
    }
    const sha = ref ? await resolveCommit(repo, 'ref', ref, call.signal) : undefined;
    const { lines: all, truncated } = await blame({
      repo,
      file,
      spec,
      sha,
      start: start_line,
      end: end_line,
      name: shown(file),
      progress: call.progress,
      signal: call.signal,
    }).catch(async (error: unknown) => {
      // Git says only "no such ref: HEAD" for a work tree whose repository has no commit yet.
      if (!sha && !call.signal.aborted && (await headCommit(repo, call.signal)) === undefined) {
        throw new UserError(
          'The repository has no commit yet, so there is no history to blame; commit first.',
        );
      }
      throw error;
    });
    call.log.info(
      `git_blame: ${all.length} ${all.length === 1 ? 'line' : 'lines'} of ${shown(file)}${truncated ? ', cut at the read limit' : ''}`,
    );
    const lines = fit(all.slice(0, call.app.resultPageSize), call.app.outputLimitBytes - 1024);
    const last = lines.at(-1);
    const more = last !== undefined && (lines.length < all.length || truncated);
    const at = ref ? ` at ${shown(ref)}` : '';
    const text = [`Blame of ${shown(file)}${at}:`, ...blameText(lines)];
    if (lines.length === 0) text.push('(the file is empty)');
    if (more) {
      text.push(
        `[More lines follow: call git_blame with the same arguments and start_line=${last.line + 1} for the rest.]`,
      );
    }
    return {
      text: text.join('\n'),
      structured: { path: file, lines, ...(more ? { nextStartLine: last.line + 1 } : {}) },
    };
  },
});

/** The leading lines whose text fits in `budget` bytes (at least one). */
function fit(lines: BlameLine[], budget: number): BlameLine[] {
  let used = 0;
  let previous: string | undefined;
  for (const [i, l] of lines.entries()) {
    if (l.sha !== previous) used += 20 + utf8ByteLength(l.author) + 12 + utf8ByteLength(l.summary);
    previous = l.sha;
    used += 12 + utf8ByteLength(l.text);
    if (used > budget && i > 0) return lines.slice(0, i);
  }
  return lines;
}
