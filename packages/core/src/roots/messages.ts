/**
 * The denials that more than one roots module raises. Each is one `UserError` that says what is wrong
 * and what to do. They quote only the caller's own input (sanitised) and never a host path or the list
 * of allowed directories: those would tell a model where else to look.
 */
import { UserError } from '../errors/index.js';
import { sanitizeForMessage } from './sanitize.js';

const HINT =
  'Give a path inside the directories this server was started with (and the client shares as roots).';

/** The path (as given) is outside every allowed directory. */
export function outsideError(input: string): UserError {
  return new UserError(
    `Access denied: "${sanitizeForMessage(input)}" is outside the allowed directories. ${HINT}`,
  );
}

/** The path looks inside, but a symbolic link on the way leads outside. */
export function symlinkOutsideError(input: string): UserError {
  return new UserError(
    `Access denied: "${sanitizeForMessage(input)}" goes through a symbolic link that points outside the allowed directories. ${HINT}`,
  );
}

/** The set is empty: no client roots inside the ceiling, or no directories configured. */
export function noRootsError(): UserError {
  return new UserError(
    'No directories are allowed right now: ask the user to share a workspace folder (roots) with this client, or to start the server with a directory argument.',
  );
}

/** A symbolic link on the way has no target; following it could create a file anywhere. */
export function danglingLinkError(input: string): UserError {
  return new UserError(
    `Cannot use "${sanitizeForMessage(input)}": it is, or goes through, a symbolic link whose target does not exist; remove or fix the link, or choose another path.`,
  );
}

/** A component that must be a directory is a file. */
export function notDirectoryError(input: string): UserError {
  return new UserError(
    `Cannot use "${sanitizeForMessage(input)}": a part of the path is a file, not a directory; check the path and try again.`,
  );
}

/** Symbolic links that loop (ELOOP). */
export function linkLoopError(input: string): UserError {
  return new UserError(
    `Cannot use "${sanitizeForMessage(input)}": it has too many levels of symbolic links (probably a loop); fix the links or choose another path.`,
  );
}

/** The server process may not look at some part of the path. */
export function permissionError(input: string): UserError {
  return new UserError(
    `Cannot use "${sanitizeForMessage(input)}": permission denied while resolving it; choose a path this server can read.`,
  );
}

/** A name in the path is longer than the file system allows (ENAMETOOLONG). */
export function nameTooLongError(input: string): UserError {
  return new UserError(
    `Cannot use "${sanitizeForMessage(input)}": a name in the path is too long for the file system; use shorter names.`,
  );
}
