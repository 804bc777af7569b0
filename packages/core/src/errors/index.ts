/**
 * Errors a tool or resource handler raises on purpose. A `UserError` carries one sentence that is
 * safe to show the model and the user: what failed and what to do. Anything else that escapes a
 * handler is an internal failure and is reported without its message or stack.
 *
 * @example
 * ```ts
 * throw new UserError('File "notes/a.md" does not exist; list the directory to see what is there.');
 * ```
 */
export class UserError extends Error {
  // A literal type, not `string`: it keeps a UserError distinct from a plain Error for the type checker.
  override readonly name: 'UserError' | 'NotFound' = 'UserError';
}

/**
 * A `UserError` for a name or URI that names nothing. A resource read answers it with the
 * protocol's not-found error (the same in both eras); a tool or prompt answers with its sentence.
 *
 * @example
 * ```ts
 * function noteText(notes: Map<string, string>, name: string): string {
 *   const text = notes.get(name);
 *   if (text === undefined) throw new NotFound(`There is no note "${name}"; list_notes shows them.`);
 *   return text;
 * }
 * ```
 */
export class NotFound extends UserError {
  override readonly name = 'NotFound' as const;

  constructor(message = 'Nothing by that name exists.') {
    super(message);
  }
}

/** True for an error whose message was written for the user (see {@link UserError}). */
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/**
 * The message of anything thrown, for logs and for a command line's one-line complaint. Never use
 * it to answer a client: only a {@link UserError}'s message is written for them.
 *
 * @example
 * ```ts
 * app.close().catch((error) => log.warn(`closing failed: ${errorMessage(error)}`));
 * ```
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
