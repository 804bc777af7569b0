import { type App, type AppOptions, createApp, registerTool } from '@mcpkit/core/server';
import { fileWatchProvider } from '@mcpkit/core/subscriptions';
import { conformanceFixtures } from './conformance/index.js';
import { registerReviewNote } from './prompts/review-note.js';
import { notePath, registerNoteResources } from './resources/notes.js';
import { deleteNote } from './tools/delete-note.js';
import { listNotes } from './tools/list-notes.js';
import { readNote } from './tools/read-note.js';
import { searchNotes } from './tools/search-notes.js';
import { summarizeNotes } from './tools/summarize-notes.js';
import { writeNote } from './tools/write-note.js';

export const NAME = 'mcpkit-example';
export const VERSION = '0.1.0';

/** Options of the notes server: core's app options, with the notes directory as the roots ceiling. */
export type ExampleOptions = AppOptions &
  Required<Pick<AppOptions, 'roots'>> & {
    /** Also serve the official conformance suite's `test_*` fixtures (testing only; default off). */
    conformanceFixtures?: boolean;
  };

/**
 * The example server: notes kept as Markdown files in one directory. It is small on purpose and
 * uses every part of core, so it doubles as the template for a new server.
 *
 * @example
 * ```ts
 * const app = createExampleApp({ roots: await RootSet.create([dir]) });
 * serveAppStdio(app);
 * ```
 */
export function createExampleApp(options: ExampleOptions): App {
  const fixtures = options.conformanceFixtures ? conformanceFixtures() : undefined;
  const app = createApp(
    {
      name: NAME,
      version: VERSION,
      title: 'mcpkit notes (example)',
      description: 'Markdown notes in one directory: the mcpkit example server.',
      instructions:
        'Notes are Markdown files. Use list_notes or the note:/// resources to see them, read_note to read one, ' +
        'search_notes to find text, and summarize_notes to ask about them.',
      setup(_mcp, scope) {
        registerTool(scope, listNotes);
        registerTool(scope, readNote);
        registerTool(scope, searchNotes);
        registerTool(scope, summarizeNotes);
        registerTool(scope, writeNote);
        registerTool(scope, deleteNote);
        registerNoteResources(scope);
        registerReviewNote(scope);
        fixtures?.register(scope);
      },
    },
    options,
  );
  const dir = options.roots.roots[0]?.path;
  if (dir) app.hub.addWatchProvider(fileWatchProvider({ toPath: (uri) => notePath(dir, uri), log: app.log }));
  return app;
}
