/**
 * Whether a classified statement may run as what the caller expects: a query only reads, a write
 * changes something, and DDL or a wholesale change runs only once the user confirmed it. Checked
 * by the runner before anything is sent to the query process.
 */
import { UserError } from '@mcpkit/core/errors';
import type { ClassifiedStatement } from './classify.js';
import type { Expectation } from './query-protocol.js';

/** Throws a {@link UserError} saying why `statement` may not run as `expect`. */
export function checkExpectation(
  statement: ClassifiedStatement,
  expect: Expectation,
  confirmed: boolean | undefined,
): void {
  if (expect === 'write') {
    if (statement.kind === 'read')
      throw new UserError('This statement only reads; run it as a query instead.');
    if ((statement.kind === 'ddl' || statement.kind === 'destructive') && confirmed !== true) {
      const what = statement.kind === 'ddl' ? 'changes the schema' : 'drops or rewrites data wholesale';
      throw new UserError(
        `This ${statement.verb} statement ${what}, so it runs only once the user confirms it.`,
      );
    }
  } else if (statement.kind !== 'read') {
    throw new UserError(`This ${statement.verb} statement changes the database; it cannot run as a query.`);
  }
}
