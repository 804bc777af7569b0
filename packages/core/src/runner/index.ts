/**
 * The bin: one command line for every server (`--transport stdio|http`, `--host`, `--port`, …),
 * stdio or Streamable HTTP with its guards, and a clean shutdown.
 */
export {
  type CommonOptions,
  type ExtraOption,
  type ParsedCommandLine,
  TOKEN_ENV,
  UsageError,
} from './cli.js';
export { runServer, type ServerBin } from './run.js';
export { serveAppStdio } from './stdio.js';
