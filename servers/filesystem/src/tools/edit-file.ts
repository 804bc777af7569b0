import { truncateLines } from '@mcpkit/core/limits';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { atomicWrite } from '../fs/atomic-write.js';
import { unifiedDiff } from '../fs/diff-view.js';
import { type AppliedEdit, applyEdits } from '../fs/edit.js';
import { assertUnchanged, readTextSnapshot } from '../fs/text-snapshot.js';

/** Largest diff shown, in bytes: enough to review an edit, small enough to leave room in the answer. */
const MAX_DIFF_BYTES = 64 * 1024;

const Applied = z.object({
  index: z.number(),
  mode: z.enum(['exact', 'whitespace']),
  count: z.number(),
  line: z.number(),
  endLine: z.number(),
});

/** A unified diff in a fence long enough that backticks inside it cannot close it. */
function fenced(diff: string): string {
  let fence = '```';
  while (diff.includes(fence)) fence += '`';
  return `${fence}diff\n${diff}${diff.endsWith('\n') ? '' : '\n'}${fence}`;
}

function summarize(display: string, applied: readonly AppliedEdit[]): string {
  const parts = applied.map((a) => {
    const where = a.line === a.endLine ? `line ${a.line}` : `lines ${a.line}-${a.endLine}`;
    const times = a.count > 1 ? ` (${a.count} places, the first at ${where})` : ` at ${where}`;
    const how =
      a.mode === 'exact' ? 'matched exactly' : 'matched with whitespace ignored and was re-indented';
    return `edit ${a.index + 1} ${how}${times}`;
  });
  return `Edited "${display}": ${parts.join('; ')}.`;
}

/**
 * Replaces text in one file. Keeps the official server's name and arguments (and its git-style diff
 * answer), and adds `replaceAll`, a whitespace-tolerant fallback that re-indents, kept line endings,
 * and a refusal to overwrite a change someone else made while the edit was worked out.
 */
export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit a file',
  description:
    'Makes replacements in a text file and returns a git-style diff. Each edit replaces oldText with newText; ' +
    'oldText must occur exactly once (add surrounding lines to make it unique) unless replaceAll is set. ' +
    'When it does not occur exactly, lines are compared with indentation and trailing spaces ignored, and ' +
    'newText is re-indented to match. Edits apply in order and all or none. Line endings are kept. ' +
    'dryRun returns the diff and writes nothing.',
  input: z.object({
    path: z.string().describe('The file to edit'),
    edits: z
      .array(
        z.object({
          oldText: z.string().describe('Text to find: copy it from the file, with enough lines to be unique'),
          newText: z.string().describe('Text to put in its place'),
          replaceAll: z.boolean().optional().describe('Replace every occurrence instead of exactly one'),
        }),
      )
      // No minimum: the official server takes an empty list (and changes nothing), so this does too.
      .max(100)
      .describe('Replacements, applied in order'),
    dryRun: z.boolean().optional().describe('Preview the change as a diff without writing it'),
  }),
  output: z.object({
    path: z.string(),
    dryRun: z.boolean(),
    changed: z.boolean(),
    applied: z.array(Applied),
    diffTruncated: z.boolean(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run({ path, edits, dryRun = false }, call) {
    const target = await resolveArg(call, path, 'write');
    const before = await readTextSnapshot(target.real, target.display);
    const { text, applied } = applyEdits(before.text, edits);
    const changed = text !== before.text;
    let writing: Promise<void> | undefined;
    if (changed && !dryRun) {
      call.signal.throwIfAborted();
      // Started before the diff is worked out, so the disk syncs the new content meanwhile. The
      // file is checked again right before it is replaced: a change made since it was read wins.
      writing = atomicWrite(target.real, text, {
        display: target.display,
        signal: call.signal,
        beforeReplace: () => assertUnchanged(target.real, target.display, before.bytes),
      });
      // Awaited below; this only keeps a failure from counting as unhandled until then.
      writing.catch(() => {});
    }
    const diff = unifiedDiff(target.display, before.text, text);
    const budget = Math.min(MAX_DIFF_BYTES, Math.floor(call.app.outputLimitBytes / 2));
    const shown = diff
      ? truncateLines(diff.split('\n'), budget, {
          continuation: 'The diff is too long to show in full; read the file to review the result.',
        })
      : undefined;
    const view = shown
      ? fenced(shown.text)
      : 'The change is too large to show as a diff; read the file to review the result.';
    const structured = {
      path: target.display,
      dryRun,
      changed,
      applied,
      diffTruncated: shown?.truncated ?? true,
    };
    if (dryRun) return { text: view, structured };
    if (!writing) {
      return {
        text: `No change: the edits leave "${target.display}" as it was, so nothing was written.`,
        structured,
      };
    }
    await writing;
    return { text: `${summarize(target.display, applied)}\n${view}`, structured };
  },
});
