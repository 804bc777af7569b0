/**
 * The read-only git tools the client's model may call while it writes a commit message: a page of
 * the staged diff of one file, the latest commit subjects (to match the project's style), and a
 * file as it is at HEAD. Nothing here can change the repository.
 */
import { loopTool } from '@mcpkit/core/sampling';
import * as z from 'zod';
import { boundedText } from './bounded-text.js';
import { DIFF_SAFETY } from './hardening.js';
import type { Repository } from './repository.js';
import { checkValue } from './values.js';

const MAX_TOOL_BYTES = 24_000;

/** Plain relative paths only: a loop tool reads from the repository's own objects. */
function plainPath(path: string): string {
  checkValue('path', path);
  if (path.startsWith('/') || path.split('/').some((p) => p === '..' || p === '')) {
    throw new Error(`"${path}" is not a path inside the repository.`);
  }
  return path;
}

/** The three loop tools, bound to one repository and the call's signal. */
export function commitMessageTools(repo: Repository, signal: AbortSignal) {
  return [
    loopTool({
      name: 'staged_diff',
      description: 'Returns the staged diff of one file (as in the staged file list).',
      input: z.object({ path: z.string().describe('A path from the staged file list') }),
      run: async ({ path }) => {
        const out = await repo.run(
          ['diff', '--cached', ...DIFF_SAFETY, '--', `:(literal)${plainPath(path)}`],
          {
            signal,
          },
        );
        return boundedText(out.stdout, MAX_TOOL_BYTES, 'diff') || 'No staged change to that file.';
      },
    }),
    loopTool({
      name: 'recent_commits',
      description: "Returns the subjects of the latest commits, to match the project's style.",
      input: z.object({ count: z.number().int().min(1).max(50).optional() }),
      run: async ({ count }) =>
        (await repo.run(['log', `--max-count=${count ?? 15}`, '--format=%s'], { signal })).stdout ||
        '(no commits yet)',
    }),
    loopTool({
      name: 'read_file_at_head',
      description: 'Returns a file as it is in the last commit, for context.',
      input: z.object({ path: z.string() }),
      run: async ({ path }) => {
        const out = await repo.runRaw(['cat-file', 'blob', `HEAD:${plainPath(path)}`], {
          signal,
          maxOutputBytes: MAX_TOOL_BYTES,
        });
        if (out.code !== 0 && !out.truncated) return 'That file is not in the last commit.';
        return boundedText(out.stdout, MAX_TOOL_BYTES, 'file');
      },
    }),
  ];
}
