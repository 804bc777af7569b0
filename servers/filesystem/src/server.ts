import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type App, type AppOptions, createApp, registerTool } from '@mcpkit/core/server';
import { fileWatchProvider } from '@mcpkit/core/subscriptions';
import { attachSettings, DEFAULT_FS_SETTINGS, type FsSettings } from './context.js';
import { isSensitive } from './fs/sensitive.js';
import { registerExplainDirectory } from './prompts/explain-directory.js';
import { registerReviewFile } from './prompts/review-file.js';
import { registerFileResources, uriToPath } from './resources/files.js';
import { applyPatch } from './tools/apply-patch.js';
import { copyFile } from './tools/copy-file.js';
import { createDirectory } from './tools/create-directory.js';
import { deleteFile } from './tools/delete-file.js';
import { directoryTree } from './tools/directory-tree.js';
import { editFile } from './tools/edit-file.js';
import { getFileInfo } from './tools/get-file-info.js';
import { listAllowedDirectories } from './tools/list-allowed-directories.js';
import { listDirectory } from './tools/list-directory.js';
import { listDirectoryWithSizes } from './tools/list-directory-with-sizes.js';
import { moveFile } from './tools/move-file.js';
import { readFile } from './tools/read-file.js';
import { readMediaFile } from './tools/read-media-file.js';
import { readMultipleFiles } from './tools/read-multiple-files.js';
import { readTextFile } from './tools/read-text-file.js';
import { searchContent } from './tools/search-content.js';
import { searchFiles } from './tools/search-files.js';
import { summarizeDirectory } from './tools/summarize-directory.js';
import { writeFile } from './tools/write-file.js';

export const NAME = 'mcpkit-filesystem';

/** Options of the filesystem server: core's app options (with the directories as `roots`) and its own. */
export type FilesystemOptions = AppOptions & Required<Pick<AppOptions, 'roots'>> & Partial<FsSettings>;

const INSTRUCTIONS =
  'Reads, writes, edits and searches files inside the allowed directories only (list_allowed_directories shows them). ' +
  'Paths may be absolute or relative to the first allowed directory. Prefer search_files and search_content to find ' +
  'things, read_text_file with offset/limit for big files, and edit_file (with dryRun to preview) over rewriting whole files. ' +
  'Replacing, moving over and deleting files asks the user first.';

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
export function createFilesystemApp(options: FilesystemOptions): App {
  const settings: FsSettings = {
    allowSensitive: options.allowSensitive ?? DEFAULT_FS_SETTINGS.allowSensitive,
    maxMediaBytes: options.maxMediaBytes ?? DEFAULT_FS_SETTINGS.maxMediaBytes,
  };
  const app = createApp(
    {
      name: NAME,
      version: '0.1.0',
      title: 'mcpkit filesystem',
      description: 'Files inside the directories you allow: read, write, edit, search, watch.',
      instructions: (a) => (a.readOnly ? `${INSTRUCTIONS} This server is read-only.` : INSTRUCTIONS),
      setup(_mcp, scope) {
        // Reading
        registerTool(scope, readTextFile);
        registerTool(scope, readFile);
        registerTool(scope, readMediaFile);
        registerTool(scope, readMultipleFiles);
        registerTool(scope, getFileInfo);
        registerTool(scope, listAllowedDirectories);
        // Listing and searching
        registerTool(scope, listDirectory);
        registerTool(scope, listDirectoryWithSizes);
        registerTool(scope, directoryTree);
        registerTool(scope, searchFiles);
        registerTool(scope, searchContent);
        registerTool(scope, summarizeDirectory);
        // Changing (hidden with --read-only)
        registerTool(scope, writeFile);
        registerTool(scope, editFile);
        registerTool(scope, applyPatch);
        registerTool(scope, createDirectory);
        registerTool(scope, copyFile);
        registerTool(scope, moveFile);
        registerTool(scope, deleteFile);
        registerFileResources(scope);
        registerReviewFile(scope);
        registerExplainDirectory(scope);
      },
    },
    options,
  );
  attachSettings(app, settings);
  // A subscribed file:// URI is watched while someone listens; only paths inside the ceiling, judged
  // (like every tool path) by where they really are: a link on the way must not put a file outside
  // the roots, or a secret behind an innocent name, under watch.
  app.hub.addWatchProvider(
    fileWatchProvider({
      toPath: (uri) => {
        const path = uriToPath(uri);
        const real = path === undefined ? undefined : realPathForWatch(path);
        if (real === undefined || !options.roots.contains(real)) return undefined;
        return settings.allowSensitive || !isSensitive(real) ? real : undefined;
      },
      log: app.log,
    }),
  );
  return app;
}

// The real path of a file to watch, or of its directory plus its name when it does not exist yet;
// `undefined` when neither resolves.
function realPathForWatch(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return undefined;
    }
  }
}

/** The `file://` URI of a path, as resources name it. */
export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}
