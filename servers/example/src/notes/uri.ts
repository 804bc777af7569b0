import { join } from 'node:path';
import { checkName } from './store.js';

/** The note resources' URI template: one resource per note. */
export const NOTE_TEMPLATE = 'note:///{name}';

/** The URI of a note. */
export function noteUri(name: string): string {
  return `note:///${encodeURIComponent(name)}`;
}

/** The note name in a `note:///` URI, or `undefined` for any other URI or a name that is not valid. */
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
