/**
 * Roots: the directories a server may use. The command line's are the ceiling, the client's roots
 * narrow them (`call.roots()`), and `RootSet.resolve` turns a user's path into a real path inside
 * them or one clear sentence.
 */

export type { DirectoryProbe } from './directory-probe.js';
export { isSlowType, type Mount, parseMountInfo, parseMountListing } from './mount-table.js';
export { type PathInputOptions, parsePathInput } from './path-input.js';
export { type ResolvedPath, type ResolveMode, type Root, RootSet, type RootSetOptions } from './root-set.js';
export { escapeControlChars, sanitizeForMessage } from './sanitize.js';
export { SlowPaths, slowPaths } from './slow-paths.js';
export {
  DEFAULT_STALL_TIMEOUT_MS,
  StallGuard,
  type StallGuardOptions,
  type StallScope,
  stallScopeOf,
} from './stall-guard.js';
