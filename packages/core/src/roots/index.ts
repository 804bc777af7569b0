export { type ClientRootsOptions, ClientRootsState, type RootsChangeListener } from './client-roots.js';
export { MAX_PATH_INPUT_LENGTH, type PathInputOptions, parsePathInput } from './path-input.js';
export {
  OUTSIDE_DISPLAY,
  type ResolvedPath,
  type ResolveMode,
  type Root,
  RootSet,
  type RootSetOptions,
} from './root-set.js';
export { escapeControlChars, MAX_QUOTED_LENGTH, sanitizeForMessage } from './sanitize.js';
export {
  type FileUriProblem,
  type FileUriResult,
  parseFileUri,
  pathToRootUri,
  rootUriToPath,
} from './uri.js';
