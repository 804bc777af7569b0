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
 * Without --write core hides the ones that change the database (export_query, which writes only
 * files, stays); --read-only hides export_query too.
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
