import { type App, type AppOptions, createApp, readPackageInfo } from '@mcpkit/core/server';
import type { NotesContext } from './context.js';
import { prompts } from './prompts/index.js';
import { resources } from './resources/index.js';
import { tools } from './tools/index.js';

/** This package's package.json: the one place its version lives (serverInfo, --version, --help). */
export const PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** The name clients see in `serverInfo`, and the bin's name. */
export const NAME = 'mcpkit-example';

/** Options of the notes server: core's app options, with the notes directory as the roots ceiling. */
export type ExampleOptions = AppOptions & Required<Pick<AppOptions, 'roots'>>;

/**
 * The example server: notes kept as Markdown files in one directory. It is small on purpose and
 * uses every part of core, so it doubles as the template for a new server. This is the one place
 * that wires its lists and its context.
 *
 * @example
 * ```ts
 * const app = createExampleApp({ roots: await RootSet.create([dir]) });
 * serveAppStdio(app);
 * ```
 */
export function createExampleApp(options: ExampleOptions): App<NotesContext> {
  const dir = options.roots.roots[0]?.path;
  if (dir === undefined) throw new Error('createExampleApp needs the notes directory as its only root.');
  return createApp<NotesContext>(
    {
      name: NAME,
      version: readPackageInfo(PACKAGE_JSON).version,
      title: 'mcpkit notes (example)',
      description: 'Markdown notes in one directory: the mcpkit example server.',
      instructions:
        'Notes are Markdown files. Use list_notes or the note:/// resources to see them, read_note to read one, ' +
        'search_notes to find text, and summarize_notes to ask about them.',
      tools,
      resources,
      prompts,
      context: { create: () => ({ dir }) },
    },
    options,
  );
}
