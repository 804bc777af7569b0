import { posix } from 'node:path';
import { errorMessage, UserError } from '@mcpkit/core/errors';
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';

/** What a patch does to one file. */
export type PatchAction = 'modified' | 'created' | 'deleted';

/** One file section of a patch. */
export interface FilePatch {
  /** The name the patch gives, with an `a/` or `b/` prefix removed and `./` and `x/..` folded. */
  path: string;
  action: PatchAction;
  patch: StructuredPatch;
  /** The `@@ … @@` line of each hunk, for messages. */
  headers: string[];
}

/** The outcome for one file: its new text, or `undefined` when the patch deletes it. */
export interface PatchedFile {
  path: string;
  action: PatchAction;
  hunks: number;
  text: string | undefined;
}

/** Most file sections one patch may carry. */
export const MAX_PATCH_FILES = 200;

const DEV_NULL = '/dev/null';
const BOM = '\uFEFF';

// Control, line-separator and bidi characters: they could break a message or disguise a name.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A name from a patch, quoted and safe for a one-line message: unsafe characters escaped, cut at 200. */
export function quoteName(name: string): string {
  const cut = name.length > 200 ? `${name.slice(0, 200)}…` : name;
  const escaped = cut.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `"${escaped}"`;
}

function stripPrefix(name: string): string {
  const bare = /^[ab]\//.test(name) ? name.slice(2) : name;
  if (bare === '')
    throw new UserError(`The patch has a file header without a file name; check its ---/+++ lines.`);
  return posix.normalize(bare);
}

function hunkHeader(h: StructuredPatch['hunks'][number]): string {
  // parsePatch moves the start of an empty side up by one; undo that to show the header as written.
  const old = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
  const neu = h.newLines === 0 ? h.newStart - 1 : h.newStart;
  return `@@ -${old},${h.oldLines} +${neu},${h.newLines} @@`;
}

function classify(p: StructuredPatch): { path: string; action: PatchAction } {
  const oldName = p.oldFileName ?? '';
  const newName = p.newFileName ?? '';
  const shown = quoteName(newName === DEV_NULL ? oldName : newName);
  if (p.isBinary)
    throw new UserError(`The patch changes the binary file ${shown}, which cannot be applied as text.`);
  if (p.isRename || p.isCopy) {
    throw new UserError(
      `The patch renames or copies ${shown}, which apply_patch does not do; use move_file or copy_file, then patch the content.`,
    );
  }
  const created = oldName === DEV_NULL || p.isCreate === true;
  const deleted = newName === DEV_NULL || p.isDelete === true;
  if (created && deleted)
    throw new UserError(`The patch both creates and deletes ${shown}; check its headers.`);
  if (created) return { path: stripPrefix(newName), action: 'created' };
  if (deleted) return { path: stripPrefix(oldName), action: 'deleted' };
  // Plain `diff -u old new` names may differ (x.orig, x): the new name is the file to change.
  return { path: stripPrefix(newName), action: 'modified' };
}

/**
 * Splits a unified diff (plain `diff -u`, or `git diff` with its extended headers) into its file
 * sections. Throws a `UserError` for a patch that cannot be read, a hunk with no file names, a
 * binary change, a rename or copy, or more than {@link MAX_PATCH_FILES} files.
 */
export function parsePatchFiles(patchText: string): FilePatch[] {
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(patchText);
  } catch (error) {
    const why = errorMessage(error);
    throw new UserError(`The patch could not be read (${quoteName(why).slice(1, -1)}); send a unified diff.`);
  }
  const written = patchText.split('\n').filter((l) => /^@@\s/.test(l));
  const totalHunks = parsed.reduce((n, p) => n + p.hunks.length, 0);
  let nextHeader = 0;
  const files: FilePatch[] = [];
  for (const p of parsed) {
    const headers = p.hunks.map((h) => {
      const line = written.length === totalHunks ? written[nextHeader] : undefined;
      nextHeader++;
      return line === undefined ? hunkHeader(h) : quoteName(line.trimEnd()).slice(1, -1);
    });
    if (p.oldFileName === undefined && p.newFileName === undefined) {
      if (p.hunks.length === 0) continue; // prose around the diff
      throw new UserError(
        `The patch has a hunk (${headers[0]}) without ---/+++ file names, so its file is unknown.`,
      );
    }
    const { path, action } = classify(p);
    // A mode-only change has nothing to apply to the content.
    if (action === 'modified' && p.hunks.length === 0) continue;
    files.push({ path, action, patch: p, headers });
  }
  if (files.length === 0) {
    throw new UserError(
      'The patch has no file changes in it; send a unified diff with ---/+++ headers and @@ hunks.',
    );
  }
  if (files.length > MAX_PATCH_FILES) {
    throw new UserError(
      `The patch changes ${files.length} files, more than ${MAX_PATCH_FILES}; split it up.`,
    );
  }
  return files;
}

function applySection(source: string, file: FilePatch, fuzz: number): string {
  const { hunks } = file.patch;
  if (hunks.length === 0) return source;
  const tryHunks = (count: number) =>
    applyPatch(source, { ...file.patch, hunks: hunks.slice(0, count) }, { fuzzFactor: fuzz });
  const whole = tryHunks(hunks.length);
  if (whole !== false) return whole;
  // Find the first hunk that does not fit: every shorter prefix still applies up to it.
  let failing = hunks.length;
  for (let k = 1; k < hunks.length; k++) {
    if (tryHunks(k) === false) {
      failing = k;
      break;
    }
  }
  const slack = fuzz > 0 ? ` (even with ${fuzz} context line${fuzz === 1 ? '' : 's'} allowed to differ)` : '';
  throw new UserError(
    `Hunk ${failing} of ${hunks.length} for ${quoteName(file.path)} (${file.headers[failing - 1]}) does not apply: the lines it expects are not in the file${slack}. Nothing was changed; read the file and make the patch again.`,
  );
}

/**
 * Applies a parsed patch (or its text) to file contents in memory, all or nothing: `files` maps each
 * name the patch uses ({@link FilePatch.path}) to the file's current text, and a name that is absent
 * is a file that does not exist. Sections are applied in order, so a file may appear twice. Returns
 * the result per file, in order of first appearance, or throws a `UserError` that names the file and
 * hunk that failed. A byte order mark is kept; the patch's line endings follow the file's.
 *
 * @example
 * ```ts
 * const [r] = applyUnifiedDiff(new Map([['a.txt', 'x\n']]), '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n');
 * r.text; // 'y\n'
 * ```
 */
export function applyUnifiedDiff(
  files: ReadonlyMap<string, string>,
  patch: string | readonly FilePatch[],
  options: { fuzz?: number } = {},
): PatchedFile[] {
  const sections = typeof patch === 'string' ? parsePatchFiles(patch) : patch;
  const fuzz = options.fuzz ?? 0;
  if (!Number.isInteger(fuzz) || fuzz < 0 || fuzz > 2) throw new UserError('fuzz must be 0, 1 or 2.');
  const state = new Map<string, string | undefined>();
  const hunks = new Map<string, number>();
  for (const file of sections) {
    const current = state.has(file.path) ? state.get(file.path) : files.get(file.path);
    const name = quoteName(file.path);
    if (file.action === 'created' && current !== undefined) {
      throw new UserError(`The patch creates ${name}, but it already exists; nothing was changed.`);
    }
    if (file.action !== 'created' && current === undefined) {
      throw new UserError(`The patch changes ${name}, which does not exist; nothing was changed.`);
    }
    const bom = current?.startsWith(BOM) ? BOM : '';
    const result = applySection((current ?? '').slice(bom.length), file, fuzz);
    if (file.action === 'deleted' && result !== '') {
      throw new UserError(
        `The patch deletes ${name}, but the file has lines the patch does not remove; nothing was changed. Read the file and make the patch again.`,
      );
    }
    state.set(file.path, file.action === 'deleted' ? undefined : bom + result);
    hunks.set(file.path, (hunks.get(file.path) ?? 0) + file.patch.hunks.length);
  }
  const out: PatchedFile[] = [];
  for (const [path, text] of state) {
    const existed = files.has(path);
    // Created and deleted again within the patch: nothing to do on disk.
    if (!existed && text === undefined) continue;
    const action: PatchAction = text === undefined ? 'deleted' : existed ? 'modified' : 'created';
    out.push({ path, action, hunks: hunks.get(path) ?? 0, text });
  }
  return out;
}
