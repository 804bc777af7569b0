import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { confirm } from '@mcpkit/core/elicitation';
import { isUserError, UserError } from '@mcpkit/core/errors';
import { type ResolvedPath, sanitizeForMessage } from '@mcpkit/core/roots';
import * as z from 'zod';
import { defineTool, type FsCall, resolveArg } from '../context.js';
import { applyUnifiedDiff, type FilePatch, parsePatchFiles, quoteName } from '../fs/patch.js';
import { checkParents, commitChanges, type PlannedChange } from '../fs/patch-write.js';
import { readTextSnapshot, type TextSnapshot } from '../fs/text-snapshot.js';

/** Longest patch accepted, in characters. */
const MAX_PATCH_CHARS = 4 * 1024 * 1024;

const Action = z.enum(['modified', 'created', 'deleted']);
const FileResult = z.object({ path: z.string(), action: Action, hunks: z.number() });

interface Target {
  resolved: ResolvedPath;
  snapshot: TextSnapshot | undefined;
}

/** The directory patch names are relative to: `cwd`, or the first allowed directory. */
async function baseDirectory(call: FsCall, cwd: string | undefined): Promise<string> {
  const dir = await resolveArg(call, cwd ?? '.', 'read');
  const info = dir.exists ? await stat(dir.real) : undefined;
  if (!info?.isDirectory()) {
    throw new UserError(
      `cwd "${sanitizeForMessage(dir.display)}" is not an existing directory; give the folder the patch is relative to.`,
    );
  }
  return dir.real;
}

/**
 * Resolves every file the patch names through the same guard as every other path ('write' mode).
 * A relative name is handed over relative to the first root (which is how the guard reads relative
 * paths), so a refusal quotes the patch's own path and never an absolute host path.
 */
async function resolveTargets(
  call: FsCall,
  sections: readonly FilePatch[],
  base: string,
): Promise<Map<string, Target>> {
  const first = (await call.roots()).roots[0]?.path ?? base;
  const targets = new Map<string, Target>();
  const byReal = new Map<string, string>();
  for (const { path } of sections) {
    if (targets.has(path)) continue;
    // `./` keeps a relative name relative: without it, a name starting with `~` or `file:` would be
    // read as the home directory or a URI, and the patch would change a different file than it names.
    const rel = relative(first, resolve(base, path));
    const input = isAbsolute(path) ? path : isAbsolute(rel) ? rel : `./${rel}`;
    let resolved: ResolvedPath;
    try {
      resolved = await resolveArg(call, input, 'write');
    } catch (error) {
      if (!isUserError(error)) throw error;
      throw new UserError(`The patch names ${quoteName(path)}, which cannot be changed: ${error.message}`);
    }
    const twin = byReal.get(resolved.real);
    if (twin !== undefined) {
      throw new UserError(
        `The patch names ${quoteName(twin)} and ${quoteName(path)}, which are the same file; use one name.`,
      );
    }
    byReal.set(resolved.real, path);
    const snapshot = resolved.exists ? await readTextSnapshot(resolved.real, resolved.display) : undefined;
    targets.set(path, { resolved, snapshot });
  }
  return targets;
}

function listing(files: readonly z.infer<typeof FileResult>[], dryRun: boolean): string {
  const verb = { modified: 'modify', created: 'create', deleted: 'delete' } as const;
  return files
    .map((f) => {
      const hunks = `${f.hunks} hunk${f.hunks === 1 ? '' : 's'}`;
      return dryRun ? `would ${verb[f.action]} "${f.path}" (${hunks})` : `${f.action} "${f.path}" (${hunks})`;
    })
    .join('\n');
}

/**
 * Applies a unified diff to one or more files, all or nothing: every hunk of every file is checked
 * in memory before the first file is written, then each file is written atomically. Creates files
 * (never folders) and deletes files after the user confirms.
 */
export const applyPatch = defineTool({
  name: 'apply_patch',
  title: 'Apply a patch',
  description:
    'Applies a unified diff (as made by git diff or diff -u) to one or more files, all or nothing: every hunk ' +
    'of every file is checked before any file is written. Paths in the patch are relative to cwd (default: ' +
    'the first allowed directory); a/ and b/ prefixes are removed. A patch may create files (their folder ' +
    'must exist) and delete files (the user is asked first). dryRun checks the patch and writes nothing.',
  input: z.object({
    patch: z.string().min(1).max(MAX_PATCH_CHARS).describe('The unified diff'),
    cwd: z.string().optional().describe('The directory the paths in the patch are relative to'),
    dryRun: z.boolean().optional().describe('Only check that the patch applies'),
    fuzz: z
      .number()
      .int()
      .min(0)
      .max(2)
      .optional()
      .describe('How many context lines per hunk may differ from the file (default 0)'),
    confirm: z.boolean().optional().describe('Consent to delete files, when the client cannot ask the user'),
  }),
  output: z.object({ files: z.array(FileResult), dryRun: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const dryRun = args.dryRun ?? false;
    const sections = parsePatchFiles(args.patch);
    const base = await baseDirectory(call, args.cwd);
    const targets = await resolveTargets(call, sections, base);
    const current = new Map<string, string>();
    for (const [name, t] of targets) if (t.snapshot) current.set(name, t.snapshot.text);
    const results = applyUnifiedDiff(current, sections, { fuzz: args.fuzz ?? 0 });

    const changes: PlannedChange[] = results.map((r) => {
      const t = targets.get(r.path)!;
      return {
        real: t.resolved.real,
        display: t.resolved.display,
        action: r.action,
        text: r.text,
        digest: t.snapshot?.digest,
      };
    });
    await checkParents(changes);
    const files = results.map((r, i) => ({ path: changes[i]!.display, action: r.action, hunks: r.hunks }));
    if (dryRun) {
      return {
        text: `Dry run: the patch applies cleanly; nothing was written.\n${listing(files, true)}`,
        structured: { files, dryRun },
      };
    }

    const doomed = files.filter((f) => f.action === 'deleted').map((f) => `"${f.path}"`);
    if (doomed.length > 0) {
      const message = `The patch deletes ${doomed.join(', ')}. Apply it?`;
      if (!confirm(call.flow, { message, explicit: args.confirm, key: 'delete' })) {
        return {
          text: `Nothing was changed: the user declined deleting ${doomed.join(', ')}.`,
          structured: { files: [], dryRun },
        };
      }
    }
    call.signal.throwIfAborted();
    await commitChanges(changes, call.signal);
    return {
      text: `Applied the patch to ${files.length} file${files.length === 1 ? '' : 's'}:\n${listing(files, false)}`,
      structured: { files, dryRun },
    };
  },
});
