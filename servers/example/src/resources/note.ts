import { NotFound } from '@mcpkit/core/errors';
import { watchFile } from '@mcpkit/core/subscriptions';
import { defineResourceTemplate, noteNames, notesOf } from '../context.js';
import { NOTE_TEMPLATE, noteName, notePath, noteUri } from '../notes/uri.js';

/**
 * `note:///<name>`: one resource per note. Listed (core pages the list), completable by name,
 * readable, and subscribable: core's hub watches the file while someone listens.
 */
export const note = defineResourceTemplate({
  name: 'note',
  uriTemplate: NOTE_TEMPLATE,
  title: 'Note',
  description: 'A note, as Markdown.',
  mimeType: 'text/markdown',
  list: async (lookup) =>
    (await noteNames(lookup)).map((name) => ({ uri: noteUri(name), name, mimeType: 'text/markdown' })),
  complete: { name: (_typed, lookup) => noteNames(lookup) },
  async read(uri, _variables, call) {
    const name = noteName(uri.href);
    const store = await notesOf(call);
    if (name === undefined || !(await store.exists(name))) throw new NotFound();
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await store.read(name) }] };
  },
  watch(uri, { context, app }) {
    const path = notePath(context.dir, uri);
    return path === undefined ? undefined : watchFile(path, app.log);
  },
});
