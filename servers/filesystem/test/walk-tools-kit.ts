/**
 * The tools the walk-tools tests (walk-tools-*.test.ts) serve: every tool that lists or searches a
 * tree.
 */
import { directoryTree } from '../src/tools/directory-tree.js';
import { listDirectory } from '../src/tools/list-directory.js';
import { listDirectoryWithSizes } from '../src/tools/list-directory-with-sizes.js';
import { searchContent } from '../src/tools/search-content.js';
import { searchFiles } from '../src/tools/search-files.js';

/** The listing and search tools, each app of the walk-tools tests is made with. */
export const walkTools = [listDirectory, listDirectoryWithSizes, directoryTree, searchFiles, searchContent];
