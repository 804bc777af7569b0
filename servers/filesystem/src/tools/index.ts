import { applyPatch } from './apply-patch.js';
import { copyFile } from './copy-file.js';
import { createDirectory } from './create-directory.js';
import { deleteFile } from './delete-file.js';
import { directoryTree } from './directory-tree.js';
import { editFile } from './edit-file.js';
import { getFileInfo } from './get-file-info.js';
import { listAllowedDirectories } from './list-allowed-directories.js';
import { listDirectory } from './list-directory.js';
import { listDirectoryWithSizes } from './list-directory-with-sizes.js';
import { moveFile } from './move-file.js';
import { readFile } from './read-file.js';
import { readMediaFile } from './read-media-file.js';
import { readMultipleFiles } from './read-multiple-files.js';
import { readTextFile } from './read-text-file.js';
import { searchContent } from './search-content.js';
import { searchFiles } from './search-files.js';
import { summarizeDirectory } from './summarize-directory.js';
import { writeFile } from './write-file.js';

/** Every tool of the filesystem server, in the order `tools/list` shows them. */
export const tools = [
  // Reading
  readTextFile,
  readFile,
  readMediaFile,
  readMultipleFiles,
  getFileInfo,
  listAllowedDirectories,
  // Listing and searching
  listDirectory,
  listDirectoryWithSizes,
  directoryTree,
  searchFiles,
  searchContent,
  summarizeDirectory,
  // Changing (hidden with --read-only)
  writeFile,
  editFile,
  applyPatch,
  createDirectory,
  copyFile,
  moveFile,
  deleteFile,
];
