import { defineResourceTemplate } from '../context.js';
import { describeTable } from '../sql/describe-table.js';
import { listTables } from '../sql/identifiers.js';
import { changesOf, databaseWatch } from './database-watch.js';
import { tableNames } from './names.js';
import { sqlName } from './schema-text.js';
import { tableText } from './table-text.js';
import { whenReadable } from './unreadable.js';
import { hasUri, TABLE_TEMPLATE, tableNameOf, tableUri } from './uris.js';

/** Sample rows a table resource shows: enough to see the shape of the data. */
const SAMPLE_ROWS = 5;

/**
 * Time the row count and the sample may each take, or the runner's limit (`--time-limit`) when that
 * is shorter. A view can run any query, and a read of a resource should answer quickly: past this
 * the description says the count is unknown.
 */
const READ_TIMEOUT_MS = 5_000;

/**
 * `sqlite://table/{name}`: one table or view, its name percent-encoded. Columns, indexes and
 * foreign keys from the schema, the row count and the first rows through the query process (so a
 * slow view is stopped at a deadline), the rows fenced as untrusted data. Every table is listed
 * (core pages the list), names complete, and a subscriber hears `resources/updated` whenever the
 * database's data or schema changes: SQLite does not say which table a commit touched.
 */
export const table = defineResourceTemplate({
  name: 'table',
  uriTemplate: TABLE_TEMPLATE,
  title: 'Table',
  description:
    'A table or view: columns, indexes, foreign keys, row count and a few sample rows (as untrusted data). ' +
    'The name is percent-encoded in the URI.',
  mimeType: 'text/plain',
  list(lookup) {
    databaseWatch(lookup);
    return listTables(lookup.context.database.schema)
      .filter((t) => hasUri(t.name))
      .map((t) => ({
        uri: tableUri(t.name),
        // Shown to people and models: escaped and cut like every name (the URI keeps the exact one).
        name: sqlName(t.name),
        title: `${t.type === 'view' ? 'View' : 'Table'} ${sqlName(t.name)}`,
        mimeType: 'text/plain',
      }));
  },
  complete: { name: (_typed, lookup) => tableNames(lookup).filter(hasUri) },
  async read(uri, variables, call) {
    databaseWatch(call);
    const name = tableNameOf(variables.name);
    const description = await whenReadable(name, () =>
      describeTable(call.context.database.schema, call.context.runner, name, {
        sampleRows: SAMPLE_ROWS,
        signal: call.signal,
        timeoutMs: READ_TIMEOUT_MS,
      }),
    );
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: tableText(description) }] };
  },
  watch: changesOf(['data', 'schema']),
});
