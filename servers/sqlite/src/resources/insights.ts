import { defineResource } from '../context.js';
import { fenceText } from '../sql/fence.js';
import { changesOf, databaseWatch } from './database-watch.js';
import { INSIGHTS_URI } from './uris.js';

/**
 * `memo://insights`: the notes append_insight collected in this server's run, the URI the original
 * Python server used. The notes are written by a model that read the data, so they may repeat a
 * stored instruction: they are fenced like rows. Subscribable: a new insight notifies at once.
 */
export const insights = defineResource({
  name: 'insights',
  uri: INSIGHTS_URI,
  title: 'Insights memo',
  description: 'The insights noted with append_insight while analysing the data, oldest first.',
  mimeType: 'text/plain',
  read(uri, call) {
    databaseWatch(call);
    const items = call.context.insights.list();
    const text =
      items.length === 0
        ? 'No insights yet: append_insight adds one each time the analysis finds something worth keeping.'
        : `${items.length} insight${items.length === 1 ? '' : 's'} noted so far, oldest first:\n` +
          fenceText(call.context.insights.render()).text;
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
  },
  watch: changesOf(['insight']),
});
