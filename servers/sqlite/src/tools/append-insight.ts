/**
 * The official `append_insight`: adds a note about the data to the session's insights memo and
 * tells subscribers of `memo://insights`. It changes no database, so it stays offered in read-only
 * mode: the read-only flag guards the database file, and the memo lives in this process only.
 */
import * as z from 'zod';
import { defineTool } from '../context.js';
import { INSIGHT_EVENT } from '../resources/database-watch.js';
import { INSIGHTS_URI } from '../resources/uris.js';
import { MAX_INSIGHT_CHARS } from '../sql/insights.js';

export const appendInsight = defineTool({
  name: 'append_insight',
  title: 'Add a business insight',
  description:
    'Adds one insight you found in the data to the insights memo (the memo://insights resource), for the user to ' +
    'read later. The memo lasts as long as the server runs; it does not change the database.',
  input: z.object({
    insight: z.string().min(1).max(MAX_INSIGHT_CHARS).describe('The insight, in one or a few sentences'),
  }),
  output: z.object({ count: z.number().describe('Insights in the memo now') }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run(args, call) {
    const count = call.context.insights.append(args.insight);
    // The memo's watch relays this to its subscribers; the hub call reaches them even when no
    // watch is running yet (the hub coalesces the two).
    call.context.changes.dispatchEvent(new Event(INSIGHT_EVENT));
    call.app.hub.resourceUpdated(INSIGHTS_URI);
    return {
      text: `Insight added; the memo holds ${count} ${count === 1 ? 'insight' : 'insights'} (${INSIGHTS_URI}).`,
      structured: { count },
    };
  },
});
