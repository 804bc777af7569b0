/**
 * The bin: one command line for every server (`--transport stdio|http`, `--host`, `--port`, …),
 * stdio or Streamable HTTP with its guards, and a clean shutdown.
 */
export {
  COMMON_OPTIONS,
  type CommonOptions,
  type ExtraOption,
  type ParsedCommandLine,
  parseCommandLine,
  TOKEN_ENV,
  UsageError,
} from './cli.js';
export { commandLineRoots } from './command-line-roots.js';
export { envName } from './env.js';
export { runServer } from './run.js';
export { type SecondsRange, secondsOption } from './seconds.js';
export type {
  BundleSetting,
  BundleSettingType,
  BundleSettingValue,
  Positionals,
  ServerBin,
} from './server-bin.js';
export { serveAppStdio } from './stdio.js';
