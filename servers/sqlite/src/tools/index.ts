import { appendInsight } from './append-insight.js';
import { askDatabase } from './ask-database.js';
import { createTable } from './create-table.js';
import { describeTable } from './describe-table.js';
import { explainQuery } from './explain-query.js';
import { exportQuery } from './export-query.js';
import { listTables } from './list-tables.js';
import { readQuery } from './read-query.js';
import { searchSchema } from './search-schema.js';
import { writeQuery } from './write-query.js';

/**
 * Every tool of the SQLite server, in the order `tools/list` shows them: the official six first.
 * Core hides the ones that are not read-only unless the server was started with --write.
 */
export const tools = [
  readQuery,
  writeQuery,
  createTable,
  listTables,
  describeTable,
  appendInsight,
  explainQuery,
  searchSchema,
  exportQuery,
  askDatabase,
];
