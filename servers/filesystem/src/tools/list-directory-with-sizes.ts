import type { Dirent } from 'node:fs';
import type { JsonValue, PageSource } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { defineTool, type FsCall, resolveArg } from '../context.js';
import { type DirectoryPageOptions, directoryPage } from '../fs/directory-page.js';
import { escapeName, formatSize, tagged } from '../fs/display.js';
import { type DirectoryFilter, directoryFilter, type Hidden, listingNotes } from '../fs/listing.js';
import { boundedPage, cursorList, type Positioned, pageBudget } from '../fs/paging.js';
import { sizesOf, totals } from '../fs/sizes.js';
import { type EntryType, typeOf, type WalkStats, walkStats } from '../fs/walk.js';

const SIZE_WIDTH = 10;
// Sizes are not known yet when a page is cut; a full-width stand-in measures the line a file will get.
const SIZE_STAND_IN = '0'.repeat(SIZE_WIDTH);

/** The official line: tag, name padded to 30, size right-aligned in 10 (blank for non-files). */
function line(name: string, type: EntryType, size: string): string {
  return `${tagged(type)}${escapeName(name).padEnd(30)} ${size.padStart(SIZE_WIDTH)}`.trimEnd();
}

/** A file's line as it will be once its size is known, to measure against the page's budget. */
const standInLine = (name: string, type: EntryType): string =>
  line(name, type, type === 'file' ? SIZE_STAND_IN : '');

/** Entries of one page (or of the whole directory) and their sizes, in the same order. */
interface Sized {
  entries: Dirent[];
  sizes: (number | undefined)[];
  nextCursor?: string;
}

type PageArgs = {
  dir: string;
  display: string;
  list: string;
  cursor: string | undefined;
  stats: WalkStats;
  filter: DirectoryFilter | undefined;
  call: FsCall;
};

function pageOptions(args: PageArgs): DirectoryPageOptions {
  const { app } = args.call;
  return {
    codec: app.cursors,
    list: args.list,
    cursor: args.cursor,
    pageSize: app.resultPageSize,
    signal: args.call.signal,
    budgetBytes: pageBudget(app.outputLimitBytes),
    stats: args.stats,
    display: args.display,
    ...args.filter,
    render: standInLine,
  };
}

/** Name order pages straight off the listing; only the entries shown are lstat'ed. */
async function byName(args: PageArgs): Promise<{ page: Sized; whole?: Sized }> {
  const { entries, nextCursor } = await directoryPage(args.dir, pageOptions(args));
  const page: Sized = {
    entries,
    sizes: await sizesOf(args.dir, entries, args.call.signal),
    ...(nextCursor ? { nextCursor } : {}),
  };
  // Totals cover the whole directory when this one page is all of it.
  return args.cursor === undefined && !nextCursor ? { page, whole: page } : { page };
}

/** Size order needs every size first; the page position is then an index into the sorted list. */
async function bySize(args: PageArgs): Promise<{ page: Sized; whole: Sized }> {
  const options = pageOptions(args);
  const everything = { ...options, cursor: undefined, pageSize: Infinity, budgetBytes: Infinity };
  const { entries } = await directoryPage(args.dir, everything);
  const sizes = await sizesOf(args.dir, entries, args.call.signal);
  // Largest first, as the official server does; entries without a size last, each group by name
  // (the listing is in name order and the sort is stable).
  const order = entries.map((_, i) => i).sort((a, b) => (sizes[b] ?? -1) - (sizes[a] ?? -1));
  const source: PageSource<Positioned<number, number>, number> = async function* (from) {
    for (let i = from === undefined ? 0 : from + 1; i < order.length; i++)
      yield { item: { value: order[i]!, position: i }, position: i };
  };
  const isIndex = (value: JsonValue): value is number =>
    Number.isSafeInteger(value) && (value as number) >= 0;
  const shown = await boundedPage(source, {
    ...options,
    isPosition: isIndex,
    render: (i) => options.render(entries[i]!.name, typeOf(entries[i]!)),
  });
  const page: Sized = {
    entries: shown.items.map((i) => entries[i]!),
    sizes: shown.items.map((i) => sizes[i]),
    ...(shown.nextCursor ? { nextCursor: shown.nextCursor } : {}),
  };
  return { page, whole: { entries, sizes } };
}

/** Lists one directory with file sizes and a summary, like the official tool, a page at a time. */
export const listDirectoryWithSizes = defineTool({
  name: 'list_directory_with_sizes',
  title: 'List a directory with sizes',
  description:
    'Lists the entries of a directory with the size of each file and a summary (files, directories, combined size), sorted by name or by size (largest first). Symbolic links are shown as [LINK] and not followed. Large directories come in pages: pass the returned cursor to get the next one. The structured result holds the summary and the cursor; pass structured: true to get each entry (name, type, size) there as well.',
  input: z.object({
    path: z.string().describe('The directory: absolute, or relative to the first allowed directory'),
    sortBy: z.enum(['name', 'size']).optional().describe('Order of the entries (default: name)'),
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
    structured: z
      .boolean()
      .optional()
      .describe(
        'Also return each entry (name, type, size) as structured data beside the text (default false: the text lists them)',
      ),
  }),
  output: z.object({
    count: z.number().describe('Entries on this page'),
    entries: z
      .array(
        z.object({
          name: z.string(),
          type: z.enum(['file', 'directory', 'symlink', 'other']),
          size: z.number().optional(),
        }),
      )
      .optional()
      .describe('The entries of this page, when structured: true was passed'),
    files: z.number().describe('Files counted in the summary'),
    directories: z.number().describe('Directories counted in the summary'),
    totalBytes: z.number().describe('Combined size of those files'),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ path, sortBy = 'name', cursor, structured = false }, call) {
    const dir = await resolveArg(call, path);
    const hidden: Hidden = { secrets: 0 };
    const stats = walkStats();
    const args: PageArgs = {
      dir: dir.real,
      display: dir.display,
      list: cursorList('list_directory_with_sizes', [dir.real, sortBy]),
      cursor,
      stats,
      filter: directoryFilter(dir.real, !call.context.allowSensitive, hidden),
      call,
    };
    const { page, whole } = sortBy === 'size' ? await bySize(args) : await byName(args);
    const { entries, sizes } = page;
    const sum = totals((whole ?? page).entries, (whole ?? page).sizes);
    const lines = entries.map((entry, i) => {
      const size = sizes[i];
      return line(entry.name, typeOf(entry), size === undefined ? '' : formatSize(size));
    });
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
        count: entries.length,
        ...(structured
          ? {
              entries: entries.map((entry, i) => {
                const size = sizes[i];
                return { name: entry.name, type: typeOf(entry), ...(size === undefined ? {} : { size }) };
              }),
            }
          : {}),
        files: sum.files,
        directories: sum.directories,
        totalBytes: sum.bytes,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      },
    };
  },
});
