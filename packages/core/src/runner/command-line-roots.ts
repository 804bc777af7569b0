/**
 * The allowed directories a server's command line names, as every server's bin builds them: each
 * realpath'd under a stall deadline, so a directory on a stalled network or FUSE mount is served
 * as given with one warning in the log instead of hanging the start; a directory that is missing
 * or not a directory is a usage error (exit 2) in one sentence.
 */
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';
import { RootSet } from '../roots/root-set.js';
import { DEFAULT_STALL_TIMEOUT_MS, StallGuard } from '../roots/stall-guard.js';
import { UsageError } from './cli.js';

/**
 * @example
 * ```ts
 * declare const cli: ParsedCommandLine; // what parseCommandLine gave the server's create()
 * const roots = await commandLineRoots(cli.positionals, log); // log: the one create() was given
 * ```
 */
export async function commandLineRoots(
  dirs: readonly string[],
  log: Logger,
  stallGuard: StallGuard = new StallGuard({ timeoutMs: DEFAULT_STALL_TIMEOUT_MS }),
): Promise<RootSet> {
  try {
    return await RootSet.create(dirs, { stallGuard, warn: (line) => log.warn(line) });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
}
