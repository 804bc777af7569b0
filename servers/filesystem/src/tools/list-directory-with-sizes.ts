import type { JsonValue, PageSource } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { defineTool, type FsCall, resolveArg } from '../context.js';
import { directoryPage } from '../fs/directory-page.js';
import { escapeName, formatSize, typeTag } from '../fs/display.js';
import { type Hidden, listingFilter, listingNotes } from '../fs/listing.js';
import { type BoundedPage, boundedPage, cursorList, type Positioned, pageBudget } from '../fs/paging.js';
import { type SizedEntry, totals, withSizes } from '../fs/sizes.js';
import { type WalkEntry, type WalkOptions, walk, walkStats } from '../fs/walk.js';

const SIZE_WIDTH = 10;

/** The official line: tag, name padded to 30, size right-aligned in 10 (blank for non-files). */
function line(entry: WalkEntry, size: string): string {
  return `${typeTag(entry.type)} ${escapeName(entry.name).padEnd(30)} ${size.padStart(SIZE_WIDTH)}`.trimEnd();
}

type PageArgs = {
  dir: string;
  list: string;
  cursor: string | undefined;
  options: WalkOptions;
  call: FsCall;
};

function pageOptions(args: PageArgs) {
  const { app } = args.call;
  return {
    codec: app.cursors,
    list: args.list,
    cursor: args.cursor,
    pageSize: app.resultPageSize,
    signal: args.call.signal,
    budgetBytes: pageBudget(app.outputLimitBytes),
    // Sizes are not known yet in name order; a full-width stand-in measures the line a file will get.
    render: (entry: WalkEntry) => line(entry, entry.type === 'file' ? '0'.repeat(SIZE_WIDTH) : ''),
  };
}

/** Name order pages straight off the listing; only the entries shown are lstat'ed. */
async function byName(args: PageArgs): Promise<{ page: BoundedPage<SizedEntry>; all?: SizedEntry[] }> {
  const { stats, display, exclude } = args.options;
  const page = await directoryPage(args.dir, {
    ...pageOptions(args),
    stats: stats ?? walkStats(),
    display: display ?? 'the directory',
    ...(exclude ? { exclude } : {}),
  });
  return { page };
}

/** Size order needs every size first; the page position is then an index into the sorted list. */
async function bySize(args: PageArgs): Promise<{ page: BoundedPage<SizedEntry>; all: SizedEntry[] }> {
  const entries: WalkEntry[] = [];
  for await (const entry of walk(args.dir, { ...args.options, signal: args.call.signal }))
    entries.push(entry);
  const all = await withSizes(entries, args.call.signal);
  // Largest first, as the official server does; entries without a size last, each group by name.
  all.sort((a, b) => (b.size ?? -1) - (a.size ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const source: PageSource<Positioned<SizedEntry, number>, number> = async function* (from) {
    for (let i = from === undefined ? 0 : from + 1; i < all.length; i++)
      yield { item: { value: all[i]!, position: i }, position: i };
  };
  const isIndex = (value: JsonValue): value is number =>
    Number.isSafeInteger(value) && (value as number) >= 0;
  return { page: await boundedPage(source, { ...pageOptions(args), isPosition: isIndex }), all };
}

/** Lists one directory with file sizes and a summary, like the official tool, a page at a time. */
export const listDirectoryWithSizes = defineTool({
  name: 'list_directory_with_sizes',
  title: 'List a directory with sizes',
  description:
    'Lists the entries of a directory with the size of each file and a summary (files, directories, combined size), sorted by name or by size (largest first). Symbolic links are shown as [LINK] and not followed. Large directories come in pages: pass the returned cursor to get the next one.',
  input: z.object({
    path: z.string().describe('The directory: absolute, or relative to the first allowed directory'),
    sortBy: z.enum(['name', 'size']).optional().describe('Order of the entries (default: name)'),
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
  }),
  output: z.object({
    entries: z.array(
      z.object({
        name: z.string(),
        type: z.enum(['file', 'directory', 'symlink', 'other']),
        size: z.number().optional(),
      }),
    ),
    files: z.number().describe('Files counted in the summary'),
    directories: z.number().describe('Directories counted in the summary'),
    totalBytes: z.number().describe('Combined size of those files'),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ path, sortBy = 'name', cursor }, call) {
    const dir = await resolveArg(call, path);
    const hidden: Hidden = { secrets: 0 };
    const stats = walkStats();
    const exclude = listingFilter(dir.real, undefined, !call.context.allowSensitive, hidden);
    const options: WalkOptions = {
      maxDepth: 1,
      stats,
      display: dir.display,
      ...(exclude ? { exclude } : {}),
    };
    const list = cursorList('list_directory_with_sizes', [dir.real, sortBy]);
    const args: PageArgs = { dir: dir.real, list, cursor, options, call };
    const { page, all } = sortBy === 'size' ? await bySize(args) : await byName(args);
    const shown = all ? page.items : await withSizes(page.items, call.signal);
    // Totals cover the whole directory when it was all read (size order, or a single page).
    const whole = all ?? (cursor === undefined && !page.nextCursor ? shown : undefined);
    const sum = totals(whole ?? shown);
    const lines = shown.map((entry) => line(entry, entry.size === undefined ? '' : formatSize(entry.size)));
    lines.push(
      '',
      `${whole ? 'Total' : 'Total on this page'}: ${sum.files} files, ${sum.directories} directories`,
      `Combined size: ${formatSize(sum.bytes)}`,
      ...listingNotes(stats, hidden),
    );
    if (page.nextCursor)
      lines.push(
        `More entries follow: call list_directory_with_sizes again with cursor "${page.nextCursor}".`,
      );
    return {
      text: lines.join('\n'),
      structured: {
        entries: shown.map((e) => ({
          name: e.name,
          type: e.type,
          ...(e.size === undefined ? {} : { size: e.size }),
        })),
        files: sum.files,
        directories: sum.directories,
        totalBytes: sum.bytes,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      },
    };
  },
});
