import { exploreTable } from './explore-table.js';
import { mcpDemo } from './mcp-demo.js';
import { queryForQuestion } from './query-for-question.js';

/**
 * Every prompt of the SQLite server. Each carries the schema it needs (never rows), and table
 * arguments complete from the database, columns once the table is chosen.
 */
export const prompts = [exploreTable, queryForQuestion, mcpDemo];
