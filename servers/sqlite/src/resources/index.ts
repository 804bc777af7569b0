import { insights } from './insights.js';
import { schema } from './schema.js';
import { table } from './table.js';

/**
 * Every resource and resource template of the SQLite server: the schema, each table (listed,
 * completable), and the insights memo. All three are subscribable (see database-watch.ts).
 */
export const resources = [schema, table, insights];
