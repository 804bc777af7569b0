import { extname } from 'node:path';
import { mediaTypeOf } from '../fs/mime.js';

const TEXT: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/typescript',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/**
 * The MIME type a resource read announces: media types by extension (shared with
 * read_media_file), a few common text types, `undefined` for everything else (the read then
 * sniffs: text when there is no NUL byte, a blob otherwise).
 */
export function contentTypeOf(path: string): string | undefined {
  return mediaTypeOf(path)?.mimeType ?? TEXT[extname(path).toLowerCase()];
}

/** True when a type is sent as text rather than as a base64 blob. */
export function isTextType(mimeType: string | undefined): boolean {
  return (
    mimeType === undefined ||
    mimeType.startsWith('text/') ||
    mimeType === 'application/json' ||
    mimeType === 'application/xml' ||
    mimeType === 'application/yaml' ||
    mimeType === 'image/svg+xml'
  );
}
