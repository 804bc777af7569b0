/**
 * Commit, tag and stash messages: free text that goes to git as data, on stdin (`-F -`) or as the
 * one argument after `-m`, so a message that looks like an option (`-F /etc/passwd`) is stored as
 * written and never read as one. Only what git cannot store, or what would reshape a log line, is
 * refused.
 */
import { UserError } from '@mcpkit/core/errors';

const MAX_MESSAGE = 65_536;

/**
 * A message that is not empty, not huge, and holds no control character other than newlines and
 * tabs (none at all, newlines included, when `oneLine`: a stash message is one line of the reflog).
 */
export function checkMessage(label: string, message: string, options: { oneLine?: boolean } = {}): string {
  if (message.trim() === '') throw new UserError(`The ${label} is empty; write what it is about.`);
  if (message.length > MAX_MESSAGE) {
    throw new UserError(`The ${label} is longer than ${MAX_MESSAGE} characters; shorten it.`);
  }
  if (message.includes('\0')) throw new UserError(`The ${label} holds a NUL character; git cannot store it.`);
  const control = options.oneLine ? /[\u0001-\u001f\u007f]/ : /[\u0001-\u0008\u000b-\u001f\u007f]/;
  if (control.test(message)) {
    throw new UserError(
      options.oneLine
        ? `The ${label} must be one line without control characters.`
        : `The ${label} holds control characters other than newlines and tabs; remove them.`,
    );
  }
  return message;
}
