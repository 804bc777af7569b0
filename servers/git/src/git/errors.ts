/**
 * Git's own failures, turned into one sentence for the caller. Git's stderr can name host paths
 * (the repository's, the git directory's), so the sentence keeps only git's first `fatal:` or
 * `error:` line with those paths replaced by the repository's display name.
 */
import { UserError } from '@mcpkit/core/errors';
import type { ProcessResult } from '@mcpkit/core/progress';
import { quotable } from './values.js';

/** A git command that exited with a failure code. */
export class GitFailed extends Error {
  readonly command: string;
  readonly code: number | null;
  readonly stderr: string;

  constructor(command: string, result: ProcessResult) {
    super(`git ${command} exited with ${result.code}`);
    this.command = command;
    this.code = result.code;
    this.stderr = result.stderr;
  }
}

/** The first line git gave as its reason (`fatal: …`, `error: …`), without the prefix. */
function gitReason(stderr: string): string | undefined {
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^(fatal|error):/.test(l));
  return line?.replace(/^(fatal|error):\s*/, '');
}

/**
 * A `UserError` for a failed git command: git's reason with every occurrence of the given host
 * paths replaced by their display form, or a generic sentence.
 */
export function gitError(what: string, error: unknown, hide: ReadonlyArray<[string, string]> = []): Error {
  if (!(error instanceof GitFailed)) return error instanceof Error ? error : new Error(String(error));
  let reason = gitReason(error.stderr);
  if (reason) for (const [path, shown] of hide) reason = reason.split(path).join(shown);
  // A reason that still names an absolute path leaks the host layout: drop it.
  if (reason && /(^|[\s'"])(\/|[A-Za-z]:\\)/.test(reason)) reason = undefined;
  return new UserError(
    reason
      ? // Git quotes the caller's names in its reason as they came: no control or bidi character passes.
        `${what} failed: ${quotable(reason.replace(/\.$/, ''))}.`
      : `${what} failed (git exit code ${error.code}).`,
  );
}
