import { defineResource } from '../context.js';
import { changesOf, databaseWatch } from './database-watch.js';
import { schemaText } from './schema-text.js';
import { SCHEMA_URI } from './uris.js';

/**
 * `sqlite://schema`: every table and view with its columns, one compact line each, so a model
 * can write correct SQL without a describe_table call per table. Text only: describe_table gives
 * the same as structured data, and a JSON copy would halve what fits in one read.
 *
 * A subscriber hears `resources/updated` when the schema changes (a table, view, column or key
 * added, altered or dropped, by us or by any other program); a change of rows alone does not
 * change this text, so it does not notify here (subscribe to the table instead).
 */
export const schema = defineResource({
  name: 'schema',
  uri: SCHEMA_URI,
  title: 'Database schema',
  description:
    'Every table and view of the database with its columns, types, keys and references, one line each.',
  mimeType: 'text/plain',
  read(uri, call) {
    databaseWatch(call);
    return {
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: schemaText(call.context.database.schema) }],
    };
  },
  watch: changesOf(['schema']),
});
