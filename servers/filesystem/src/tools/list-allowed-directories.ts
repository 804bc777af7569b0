import * as z from 'zod';
import { defineTool } from '../context.js';

/**
 * The directories this call may use, after the client's roots have narrowed the configured ones.
 * The one place absolute root paths are shown: the model needs them to form paths.
 */
export const listAllowedDirectories = defineTool({
  name: 'list_allowed_directories',
  title: 'List allowed directories',
  description:
    'Lists the directories this server may read and write for this client (the configured directories, ' +
    'narrowed by the roots the client shares). Paths inside them can be passed to the other tools.',
  input: z.object({}),
  output: z.object({ directories: z.array(z.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(_args, call) {
    const directories = (await call.roots()).roots.map((root) => root.path);
    const text =
      directories.length > 0
        ? `Allowed directories:\n${directories.join('\n')}`
        : 'No directories are allowed right now: the client shares no roots inside the configured directories.';
    return { text, structured: { directories } };
  },
});
