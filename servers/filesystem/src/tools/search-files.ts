import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { beneath, escapeName } from '../fs/display.js';
import { compileExcludes, compileGlob } from '../fs/glob.js';
import { type Hidden, listingFilter, listingNotes, walkSource } from '../fs/listing.js';
import { boundedPage, cursorList, pageBudget } from '../fs/paging.js';
import { isWalkPosition, type WalkOptions, walkStats } from '../fs/walk.js';

/**
 * Finds files and directories whose names or paths match a glob, walking the tree once per page:
 * the cursor holds the walk position, so the next page resumes the walk where this one stopped.
 * Matching rules are in `compileGlob` (src/fs/glob.ts).
 *
 * The text lists each match under the directory as the caller named it: absolute when the caller
 * gave an absolute path, as the official server's are, and never a real path the caller did not
 * send (a root reached through a link stays spelled the caller's way), so every line can be passed
 * back to a tool as it is. `structuredContent` carries the same matches relative to `root`: repeating the directory on every one of thousands of lines would
 * make the answer twice the size of its text, and a client's reader pays for an answer's size
 * more than linearly (the SDK's stdio reader copies its buffer on every chunk).
 */
export const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search for files',
  description:
    'Finds files and directories under a path whose name matches a glob, at any depth: "*.ts" finds every .ts file. A pattern with "/" matches the path from the search directory instead ("src/*.ts"), and a plain word with no glob characters matches names containing it, ignoring case. Symbolic links are listed but not followed. Returns paths under path as given (absolute for an absolute path), a page at a time: pass the returned cursor to continue.',
  input: z.object({
    path: z
      .string()
      .describe('The directory to search: absolute, or relative to the first allowed directory'),
    pattern: z.string().min(1).max(1000).describe('Glob, e.g. "*.md", "src/**/*.test.ts", or a plain word'),
    excludePatterns: z.array(z.string().max(1000)).max(100).optional().describe('Globs of entries to skip'),
    respectGitignore: z.boolean().optional().describe('Skip what .gitignore files ignore, and .git'),
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
  }),
  output: z.object({
    root: z.string().describe('The directory searched, as the caller gave it'),
    matches: z
      .array(z.string())
      .describe('The matches on this page, as paths relative to root with "/" between names'),
    nextCursor: z.string().optional().describe('Pass as cursor to get the next page'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const dir = await resolveArg(call, args.path);
    const { app } = call;
    const match = compileGlob(args.pattern, { substring: true });
    const hidden: Hidden = { secrets: 0 };
    const stats = walkStats();
    const exclude = listingFilter(
      dir.real,
      compileExcludes(args.excludePatterns),
      !call.context.allowSensitive,
      hidden,
    );
    const options: WalkOptions = { stats, display: dir.display };
    if (exclude) options.exclude = exclude;
    if (args.respectGitignore) options.gitignore = { boundary: dir.root.path };
    let scanned = 0;
    const source = walkSource(dir.real, options, (relative, name, type) => {
      if (++scanned % 256 === 0)
        call.progress.report(stats.entriesSeen, { message: `${stats.entriesSeen} entries scanned` });
      return match(relative, name, type === 'directory');
    });
    const shape = [dir.real, args.pattern, args.excludePatterns ?? [], args.respectGitignore ?? false];
    const page = await boundedPage(source, {
      codec: app.cursors,
      list: cursorList('search_files', shape),
      cursor: args.cursor,
      pageSize: app.resultPageSize,
      signal: call.signal,
      isPosition: isWalkPosition,
      budgetBytes: pageBudget(app.outputLimitBytes),
      render: (entry) => escapeName(beneath(args.path, entry.relative)),
    });
    const lines = page.texts.length > 0 ? [...page.texts] : ['No matches found'];
    lines.push(...listingNotes(stats, hidden));
    call.log.info(`search_files: ${page.items.length} matches after ${stats.entriesSeen} entries`);
    if (page.nextCursor)
      lines.push(`More matches follow: call search_files again with cursor "${page.nextCursor}".`);
    return {
      text: lines.join('\n'),
      structured: {
        root: args.path,
        matches: page.items.map((entry) => entry.relative),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      },
    };
  },
});
