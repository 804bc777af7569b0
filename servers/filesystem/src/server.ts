import { type App, type AppOptions, createApp, readPackageInfo } from '@mcpkit/core/server';
import { DEFAULT_FS_CONTEXT, type FsContext } from './context.js';
import { prompts } from './prompts/index.js';
import { resources } from './resources/index.js';
import { guardPrompts, guardTools } from './stall.js';
import { tools } from './tools/index.js';

/** This package's package.json: the one place its version lives (serverInfo, --version, --help). */
export const PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** The name clients see in `serverInfo`, and the bin's name. */
export const NAME = 'mcpkit-filesystem';

/** Options of the filesystem server: core's app options (with the directories as `roots`) and its own. */
export type FilesystemOptions = AppOptions & Required<Pick<AppOptions, 'roots'>> & Partial<FsContext>;

const INSTRUCTIONS =
  'Reads, writes, edits and searches files inside the allowed directories only (list_allowed_directories shows them). ' +
  'Paths may be absolute or relative to the first allowed directory. Prefer search_files and search_content to find ' +
  'things, read_text_file with offset/limit for big files, and edit_file (with dryRun to preview) over rewriting whole files. ' +
  'Deleting a file, and replacing one with move_file or copy_file (overwrite: true), asks the user first.';
const ASKS_OVERWRITE = ' write_file asks too before it replaces an existing file.';

/**
 * The filesystem server: every tool, the `file://` resources and the prompts, over the directories
 * given. One app serves both protocol eras over stdio and HTTP.
 *
 * @example
 * ```ts
 * const app = createFilesystemApp({ roots: await RootSet.create(['/home/me/project']) });
 * serveAppStdio(app);
 * ```
 */
export function createFilesystemApp(options: FilesystemOptions): App<FsContext> {
  const context: FsContext = {
    allowSensitive: options.allowSensitive ?? DEFAULT_FS_CONTEXT.allowSensitive,
    maxMediaBytes: options.maxMediaBytes ?? DEFAULT_FS_CONTEXT.maxMediaBytes,
    confirmOverwrite: options.confirmOverwrite ?? DEFAULT_FS_CONTEXT.confirmOverwrite,
    stallGuard: options.stallGuard ?? DEFAULT_FS_CONTEXT.stallGuard,
  };
  return createApp<FsContext>(
    {
      name: NAME,
      version: readPackageInfo(PACKAGE_JSON).version,
      title: 'mcpkit filesystem',
      description: 'Files inside the directories you allow: read, write, edit, search, watch.',
      instructions: (a) =>
        a.readOnly
          ? `${INSTRUCTIONS} This server is read-only.`
          : `${INSTRUCTIONS}${context.confirmOverwrite ? ASKS_OVERWRITE : ''}`,
      tools: guardTools(tools),
      resources,
      prompts: guardPrompts(prompts),
      context: { create: () => context },
    },
    options,
  );
}

export { fileUri } from './resources/file.js';
