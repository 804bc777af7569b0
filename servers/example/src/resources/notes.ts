import { join } from 'node:path';
import { completer } from '@mcpkit/core/completion';
import { NotFound, readResource, type Scope } from '@mcpkit/core/server';
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { checkName, NoteStore } from '../notes/store.js';

/** `note:///<name>`: one resource per note. */
export const NOTE_URI = 'note:///{name}';

export function noteUri(name: string): string {
  return `note:///${encodeURIComponent(name)}`;
}

/** The note name in a `note:///` URI, or `undefined` for any other URI. */
export function noteName(uri: string): string | undefined {
  if (!uri.startsWith('note:///')) return undefined;
  try {
    return checkName(decodeURIComponent(uri.slice('note:///'.length)));
  } catch {
    return undefined;
  }
}

/** The file behind a note URI, for the watcher: the name check keeps it inside the notes directory. */
export function notePath(dir: string, uri: string): string | undefined {
  const name = noteName(uri);
  return name === undefined ? undefined : join(dir, `${name}.md`);
}

/**
 * Registers the note template: listed (the list pages through core's wrapper), completable by
 * name, readable, and subscribable (core's hub watches the file while someone listens).
 */
export function registerNoteResources(scope: Scope): void {
  const roots = async () => (scope.roots ? scope.roots.current() : undefined);
  const names = async () => {
    const set = await roots();
    return set ? (await new NoteStore(set).list()).map((n) => n.name) : [];
  };
  scope.mcp.registerResource(
    'note',
    new ResourceTemplate(NOTE_URI, {
      list: async () => ({
        resources: (await names()).map((name) => ({ uri: noteUri(name), name, mimeType: 'text/markdown' })),
      }),
      complete: { name: completer(names) },
    }),
    { title: 'Note', description: 'A note, as Markdown.', mimeType: 'text/markdown' },
    (uri, _vars, ctx) =>
      readResource(scope, uri, ctx, async (flow) => {
        const name = noteName(uri.href);
        if (name === undefined || !scope.roots) throw new NotFound();
        const store = new NoteStore(await scope.roots.forCall(flow));
        if (!(await store.exists(name))) throw new NotFound();
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await store.read(name) }] };
      }),
  );
}
