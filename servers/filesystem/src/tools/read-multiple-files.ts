import { isUserError } from '@mcpkit/core/errors';
import { OutputBudget, utf8ByteLength } from '@mcpkit/core/limits';
import { CancelledError, checkpoint } from '@mcpkit/core/progress';
import { sanitizeForMessage } from '@mcpkit/core/roots';
import * as z from 'zod';
import { defineTool } from '../context.js';
import { escapeName } from '../fs/display.js';
import { errnoSentence } from '../fs/errno-sentence.js';
import { resolvePath } from '../fs/paths.js';
import { readTextWindow } from '../fs/read-text.js';

const SEPARATOR = '\n---\n';
// Below this, a file would show little more than its truncation notice: it is skipped instead.
const MIN_SHARE = 512;

/**
 * Reads several text files in one call. Each file's text or its error appears inline, so one bad
 * path never fails the call; all files share one output budget, and a closing note names the
 * files that were cut or skipped and how to read the rest.
 */
export const readMultipleFiles = defineTool({
  name: 'read_multiple_files',
  title: 'Read multiple files',
  description:
    'Reads several text files at once. Each file appears under its path; a file that cannot be read shows ' +
    'its error in its place without failing the others. All files share the output size limit: a file that ' +
    'does not fit is cut or skipped, and a note at the end says which. Only works within the allowed directories.',
  input: z.object({
    paths: z.array(z.string()).min(1).max(100).describe('The files to read (1 to 100)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ paths }, call) {
    // Asked once, outside the per-file error handling, so a request for roots is never mistaken
    // for a failed file.
    const roots = await call.roots();
    const policy = call.context;
    const limit = call.app.outputLimitBytes;
    // Room for the closing note, so it is never the part that gets cut.
    const reserve = Math.min(
      Math.floor(limit / 4),
      200 + paths.reduce((sum, p) => sum + utf8ByteLength(p) + 80, 0),
    );
    const budget = new OutputBudget(limit - reserve);
    const sections: string[] = [];
    const cut: string[] = [];
    const skipped: string[] = [];
    const tick = checkpoint(call.signal, 1);

    for (const [i, input] of paths.entries()) {
      await tick();
      const separator = i === 0 ? '' : SEPARATOR;
      try {
        const file = await resolvePath(roots, policy, input, 'read');
        // Under the caller's own path, as the official server shows it, never the real path behind it.
        const shown = escapeName(input);
        const header = `${separator}${shown}:\n`;
        const share = budget.remaining - utf8ByteLength(header) - 1;
        if (share < MIN_SHARE) {
          skipped.push(shown);
        } else {
          const { text, truncated } = await readTextWindow(
            file,
            { kind: 'range', first: 0 },
            {
              byteLimit: share,
              resume: (next) => `Read the rest with read_text_file, path ${JSON.stringify(input)}, ${next}.`,
              signal: call.signal,
            },
          );
          if (truncated) cut.push(shown);
          sections.push(budget.take(`${header}${text}\n`).text);
        }
      } catch (error) {
        if (error instanceof CancelledError || !(error instanceof Error)) throw error;
        // A file system error no reader named (a path too long, say) gets the server's sentence for it.
        const said = isUserError(error) ? error : errnoSentence(error, roots);
        const reason = said ? said.message : 'it could not be read because of an internal error.';
        // The details stay in the process log: they can name host paths the client must not see.
        if (!said) call.app.log.error(`read_multiple_files: ${error.stack ?? error.message}`);
        // Quoted and escaped: a newline (or a bidi control) in the input must not forge a section
        // that looks like another file's content.
        sections.push(budget.take(`${separator}"${sanitizeForMessage(input)}": Error - ${reason}\n`).text);
      }
      call.progress.report(i + 1, { total: paths.length, message: `read ${i + 1} of ${paths.length}` });
    }
    const note = closingNote(cut, skipped);
    return { text: sections.join('') + note };
  },
});

function closingNote(cut: readonly string[], skipped: readonly string[]): string {
  const lines: string[] = [];
  if (cut.length > 0) {
    lines.push(`Cut to fit the output limit (each shows where to continue): ${cut.join(', ')}.`);
  }
  if (skipped.length > 0) {
    lines.push(
      `Skipped, the output limit was reached: ${skipped.join(', ')}. Read them with read_text_file or in a later call.`,
    );
  }
  return lines.length > 0 ? `\n[${lines.join(' ')}]` : '';
}
