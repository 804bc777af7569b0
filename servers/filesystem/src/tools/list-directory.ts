import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { directoryPage } from '../fs/directory-page.js';
import { escapeName, typeTag } from '../fs/display.js';
import { type Hidden, listingFilter, listingNotes } from '../fs/listing.js';
import { cursorList, pageBudget } from '../fs/paging.js';
import { walkStats } from '../fs/walk.js';

const EntryType = z.enum(['file', 'directory', 'symlink', 'other']);

/**
 * Lists one directory in name order, a page at a time. The text keeps the official server's
 * `[DIR] name` / `[FILE] name` lines and adds `[LINK]` for symbolic links (not followed) and
 * `[OTHER]` for sockets, pipes and devices.
 */
export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List a directory',
  description:
    'Lists the entries of a directory in name order, one per line: "[DIR] name", "[FILE] name", or "[LINK] name" for a symbolic link (not followed). Large directories come in pages: pass the returned cursor to get the next one.',
  input: z.object({
    path: z.string().describe('The directory: absolute, or relative to the first allowed directory'),
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
  }),
  output: z.object({
    entries: z.array(z.object({ name: z.string(), type: EntryType })),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ path, cursor }, call) {
    const dir = await resolveArg(call, path);
    const { app } = call;
    const hidden: Hidden = { secrets: 0 };
    const stats = walkStats();
    const exclude = listingFilter(dir.real, undefined, !call.context.allowSensitive, hidden);
    const page = await directoryPage(dir.real, {
      codec: app.cursors,
      list: cursorList('list_directory', [dir.real]),
      cursor,
      pageSize: app.resultPageSize,
      budgetBytes: pageBudget(app.outputLimitBytes),
      stats,
      display: dir.display,
      signal: call.signal,
      ...(exclude ? { exclude } : {}),
      render: (entry) => `${typeTag(entry.type)} ${escapeName(entry.name)}`,
    });
    const lines = page.texts.length > 0 ? [...page.texts] : ['The directory is empty.'];
    lines.push(...listingNotes(stats, hidden));
    if (page.nextCursor)
      lines.push(`More entries follow: call list_directory again with cursor "${page.nextCursor}".`);
    return {
      text: lines.join('\n'),
      structured: {
        entries: page.items.map((entry) => ({ name: entry.name, type: entry.type })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      },
    };
  },
});
