import { utf8ByteLength } from '@mcpkit/core/limits';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { escapeName } from '../fs/display.js';
import { compileExcludes } from '../fs/glob.js';
import { type Hidden, listingFilter, listingNotes } from '../fs/listing.js';
import { pageBudget } from '../fs/paging.js';
import { type EntryType, type WalkOptions, walk, walkStats } from '../fs/walk.js';

/** Entries a tree shows when the caller does not say: plenty to see a project's shape. */
export const DEFAULT_TREE_ENTRIES = 2000;
/** Most entries a tree may show in one answer; beyond that, narrow the tree instead. */
export const MAX_TREE_ENTRIES = 50_000;

const SUFFIX: Record<EntryType, string> = { directory: '/', symlink: '@', file: '', other: '' };

/**
 * A directory tree as indented text, two spaces per level, directories ending in `/` and symbolic
 * links in `@` (never followed). The official tool returns nested JSON objects; the same tree as
 * text is several times smaller, so far more of it fits in a model's context. The tree is sent
 * once, as text; `structuredContent` carries what a program needs to act on it (`entries` counts
 * its lines below the root, `truncated` says whether to narrow).
 */
export const directoryTree = defineTool({
  name: 'directory_tree',
  title: 'Directory tree',
  description:
    'Shows the tree under a directory as indented text: two spaces per level, directories end with "/", symbolic links with "@" (not followed). Stops after maxEntries entries (default 2000) and says how to narrow the tree. excludePatterns are globs; one without "/" matches a name at any depth (e.g. "node_modules", "*.log").',
  input: z.object({
    path: z.string().describe('The directory: absolute, or relative to the first allowed directory'),
    excludePatterns: z
      .array(z.string().max(1000))
      .max(100)
      .optional()
      .describe('Globs of entries to leave out'),
    maxDepth: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Levels to show (1: only the entries of path)'),
    maxEntries: z
      .number()
      .int()
      .min(1)
      .max(MAX_TREE_ENTRIES)
      .optional()
      .describe(`Entries to show at most (default ${DEFAULT_TREE_ENTRIES})`),
    respectGitignore: z.boolean().optional().describe('Leave out what .gitignore files ignore, and .git'),
  }),
  output: z.object({
    root: z.string().describe('The directory, as the caller gave it'),
    entries: z.number().describe('Entries in the tree'),
    truncated: z.boolean().describe('True when the tree stops early (maxEntries or output size)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const dir = await resolveArg(call, args.path);
    const maxEntries = args.maxEntries ?? DEFAULT_TREE_ENTRIES;
    const hidden: Hidden = { secrets: 0 };
    const stats = walkStats();
    const exclude = listingFilter(
      dir.real,
      compileExcludes(args.excludePatterns),
      !call.context.allowSensitive,
      hidden,
    );
    const options: WalkOptions = { stats, signal: call.signal, display: dir.display };
    if (exclude) options.exclude = exclude;
    if (args.maxDepth) options.maxDepth = args.maxDepth;
    if (args.respectGitignore) options.gitignore = { boundary: dir.root.path };

    // Cut by size here, between lines, with a hint: core's own cut would fall mid-line with none.
    const budget = pageBudget(call.app.outputLimitBytes);
    // The caller's name for the directory heads the tree, never the real path it resolved to.
    const lines = [escapeName(/[\\/]$/.test(args.path) ? args.path : `${args.path}/`)];
    let used = utf8ByteLength(lines[0]!);
    let entries = 0;
    let stop: 'entries' | 'size' | undefined;
    for await (const entry of walk(dir.real, options)) {
      if (entries === maxEntries) {
        stop = 'entries';
        break;
      }
      const line = '  '.repeat(entry.depth) + escapeName(entry.name) + SUFFIX[entry.type];
      used += utf8ByteLength(line) + 1;
      if (used > budget) {
        stop = 'size';
        break;
      }
      lines.push(line);
      entries++;
      if (entries % 256 === 0) call.progress.report(entries, { message: `${entries} entries` });
    }
    const tree = lines.join('\n');
    const notes = listingNotes(stats, hidden);
    if (stop) notes.unshift(narrowHint(stop, entries, maxEntries));
    call.log.info(`directory_tree: ${entries} entries${stop ? ' (cut short)' : ''}`);
    return {
      text: notes.length > 0 ? `${tree}\n\n${notes.join('\n')}` : tree,
      structured: { root: args.path, entries, truncated: stop !== undefined },
    };
  },
});

function narrowHint(stop: 'entries' | 'size', shown: number, maxEntries: number): string {
  const why = stop === 'entries' ? `maxEntries (${maxEntries})` : 'the output size limit';
  const raise = stop === 'entries' && maxEntries < MAX_TREE_ENTRIES ? ' raise maxEntries (up to 50000),' : '';
  return `Truncated: showing the first ${shown} entries because of ${why}. To see the rest,${raise} lower maxDepth, add excludePatterns (e.g. "node_modules", "dist"), set respectGitignore, or call directory_tree on a subdirectory.`;
}
