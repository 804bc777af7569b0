export {
  type CommonOptions,
  type ExtraOption,
  type PackageInfo,
  type ParsedCommandLine,
  TOKEN_ENV,
  UsageError,
  helpText,
  parseCommandLine,
  readPackageInfo,
} from './cli.js';
export { type HttpServerHandle, type HttpServerOptions, startHttpServer } from './http-server.js';
export { type ListenHooks, tapListen } from './listen-tap.js';
export { type ServerBin, httpFactory, runServer } from './run.js';
export { hubListenHooks, serveAppStdio } from './stdio.js';
