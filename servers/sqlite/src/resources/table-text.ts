/**
 * One table or view as text: its name and row count, then its schema (columns, keys, indexes),
 * then the sample rows. Schema and rows each sit inside a per-read random fence: a cell may hold
 * "ignore previous instructions…", and so may a column's name or declared type, since the file
 * itself is the untrusted party.
 */
import type { IndexInfo, TableDescription } from '../sql/describe-table.js';
import { escapeControls } from '../sql/display.js';
import { fenceLines, fenceRows } from '../sql/fence.js';
import { columnText, constraintTexts, sqlName, visibleColumns } from './schema-text.js';

function indexText(index: IndexInfo): string {
  const columns = index.columns.map((c) => (c === null ? '<expression>' : sqlName(c))).join(', ');
  const kind = index.origin === 'pk' ? 'primary key' : index.unique ? 'unique' : 'index';
  return `${sqlName(index.name)}: ${kind} on (${columns})${index.partial ? ', partial' : ''}`;
}

function countText(description: TableDescription): string {
  if (description.rowCount !== null) {
    return `${description.rowCount} row${description.rowCount === 1 ? '' : 's'}`;
  }
  return `row count unknown (${escapeControls(description.countError ?? 'it could not be counted')})`;
}

/**
 * The whole description as text.
 *
 * @example
 * ```ts
 * tableText(await describeTable(db.schema, runner, 'orders')).split('\n')[0]; // 'table orders: 30 rows'
 * ```
 */
export function tableText(description: TableDescription): string {
  const schema = ['Columns:'];
  for (const column of visibleColumns(description)) schema.push(`  ${columnText(column, description)}`);
  for (const constraint of constraintTexts(description)) schema.push(`  ${constraint}`);
  if (description.indexes.length > 0) {
    schema.push('Indexes:');
    for (const index of description.indexes) schema.push(`  ${indexText(index)}`);
  }
  const lines = [
    `${description.type} ${sqlName(description.name)}: ${countText(description)}`,
    'Schema (names as SQL: quote a name that is not a plain word):',
    fenceLines(schema).text,
  ];
  const { sample } = description;
  if (description.sampleError) {
    lines.push(`Sample rows: none (${escapeControls(description.sampleError)})`);
  } else if (sample.rows.length === 0) {
    lines.push('Sample rows: none, the table is empty.');
  } else {
    const more = sample.truncated ? ', more exist' : '';
    lines.push(
      `Sample rows (the first ${sample.rows.length}${more}; column names, then one JSON array per row):`,
    );
    lines.push(fenceRows(sample).text);
  }
  return lines.join('\n');
}
