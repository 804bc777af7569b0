import { errorMessage } from '@mcpkit/core/errors';
import {
  DEFAULT_STALL_TIMEOUT_MS,
  type ResolvedPath,
  type ResolveMode,
  StallGuard,
} from '@mcpkit/core/roots';
import { type Call, type ContextDefiners, type Lookup, withContext } from '@mcpkit/core/server';
import { errnoSentence } from './fs/errno-sentence.js';
import { type PathPolicy, resolvePath } from './fs/paths.js';

/** The filesystem server's own settings, made once per app from the command line. */
export interface FsContext extends PathPolicy {
  /** Largest file read_media_file returns, in bytes. */
  readonly maxMediaBytes: number;
  /**
   * Ask the user before write_file replaces an existing file (`--confirm-overwrite`). Off by
   * default, as with the official server: a model that rewrites a file it just read should not
   * need a second round trip.
   */
  readonly confirmOverwrite: boolean;
  /**
   * Deadline and slot limit for calls on network and FUSE mounts (`--stall-timeout`; see
   * `stall.ts`). Calls on local disks never meet it.
   */
  readonly stallGuard: StallGuard;
}

export const DEFAULT_FS_CONTEXT: FsContext = {
  allowSensitive: false,
  maxMediaBytes: 5 * 1024 * 1024,
  confirmOverwrite: false,
  stallGuard: new StallGuard({ timeoutMs: DEFAULT_STALL_TIMEOUT_MS }),
};

/** What every filesystem handler gets. */
export type FsCall = Call<FsContext>;

const definers: ContextDefiners<FsContext> = withContext<FsContext>();

/**
 * `handler` with a file system error it leaves unnamed (an errno code) turned into one sentence
 * (see `fs/errno-sentence.ts`); the raw error still reaches the server log, at debug level.
 */
function named<A extends unknown[], R>(handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    // Every handler takes the call last.
    const call = args.at(-1) as FsCall;
    try {
      return await handler(...args);
    } catch (error) {
      const sentence = errnoSentence(error, call.app.rootsCeiling);
      if (!sentence) throw error;
      call.app.log.debug(`${sentence.message} (${errorMessage(error)})`);
      throw sentence;
    }
  };
}

/**
 * `defineTool`, `definePrompt` and `defineResourceTemplate` with `call.context` typed as
 * {@link FsContext}: every tool, resource and prompt of this server is defined through them, so
 * every one of them answers a stray file system error with a sentence (see {@link named}).
 */
export const defineTool: ContextDefiners<FsContext>['defineTool'] = (def) =>
  definers.defineTool({ ...def, run: named(def.run) });
export const definePrompt: ContextDefiners<FsContext>['definePrompt'] = (def) =>
  definers.definePrompt({ ...def, get: named(def.get) });
export const defineResourceTemplate: ContextDefiners<FsContext>['defineResourceTemplate'] = (def) =>
  definers.defineResourceTemplate({ ...def, read: named(def.read) });
/** What filesystem listings and completions get. */
export type FsLookup = Lookup<FsContext>;

/**
 * Resolves a path argument against this call's roots and the server's policy.
 *
 * @example
 * ```ts
 * const file = await resolveArg(call, args.path);            // must exist to be read
 * const target = await resolveArg(call, args.path, 'write'); // may not exist yet
 * ```
 */
export async function resolveArg(
  call: FsCall,
  input: string,
  mode: ResolveMode = 'read',
): Promise<ResolvedPath> {
  return resolvePath(await call.roots(), call.context, input, mode);
}
