export {
  type CommonOptions,
  type ExtraOption,
  helpText,
  type PackageInfo,
  type ParsedCommandLine,
  parseCommandLine,
  readPackageInfo,
  TOKEN_ENV,
  UsageError,
} from './cli.js';
export { type HttpServerHandle, type HttpServerOptions, startHttpServer } from './http-lazy.js';
export { type ListenHooks, tapListen } from './listen-tap.js';
export { httpFactory, runServer, type ServerBin } from './run.js';
export { hubListenHooks, serveAppStdio } from './stdio.js';
