import { extname } from 'node:path';

/** Files MCP has a content block for: images and audio. Anything else travels as an embedded resource. */
export interface MediaType {
  kind: 'image' | 'audio';
  mimeType: string;
}

// By extension, not by sniffing: the file is sent as it is, and the client decides what to do
// with a mislabelled one, as it would with a download.
const BY_EXTENSION: Readonly<Record<string, MediaType>> = {
  '.png': { kind: 'image', mimeType: 'image/png' },
  '.jpg': { kind: 'image', mimeType: 'image/jpeg' },
  '.jpeg': { kind: 'image', mimeType: 'image/jpeg' },
  '.gif': { kind: 'image', mimeType: 'image/gif' },
  '.webp': { kind: 'image', mimeType: 'image/webp' },
  '.bmp': { kind: 'image', mimeType: 'image/bmp' },
  '.svg': { kind: 'image', mimeType: 'image/svg+xml' },
  '.ico': { kind: 'image', mimeType: 'image/x-icon' },
  '.mp3': { kind: 'audio', mimeType: 'audio/mpeg' },
  '.wav': { kind: 'audio', mimeType: 'audio/wav' },
  '.ogg': { kind: 'audio', mimeType: 'audio/ogg' },
  '.flac': { kind: 'audio', mimeType: 'audio/flac' },
  '.m4a': { kind: 'audio', mimeType: 'audio/mp4' },
  '.aac': { kind: 'audio', mimeType: 'audio/aac' },
  '.webm': { kind: 'audio', mimeType: 'audio/webm' },
};

/** The extensions read_media_file accepts, for messages and descriptions. */
export const MEDIA_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION).map((ext) => ext.slice(1));

/**
 * The media type of a file by its extension (case-insensitive), or `undefined` when it is not an
 * image or audio type this server sends.
 *
 * @example mediaTypeOf('/srv/app/Logo.PNG') // { kind: 'image', mimeType: 'image/png' }
 */
export function mediaTypeOf(path: string): MediaType | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

// Types for files that are neither image nor audio, so a client knows what the embedded blob is.
// Anything not listed is application/octet-stream, as the official server sends it.
const BINARY_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.jar': 'application/java-archive',
  '.epub': 'application/epub+zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.bz2': 'application/x-bzip2',
  '.xz': 'application/x-xz',
  '.7z': 'application/x-7z-compressed',
  '.rar': 'application/vnd.rar',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.doc': 'application/msword',
  '.xls': 'application/vnd.ms-excel',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.sqlite': 'application/vnd.sqlite3',
};

/**
 * The MIME type of a file read_media_file sends as an embedded resource (not an image or audio
 * file), by its extension: `application/octet-stream` when the extension says nothing.
 *
 * @example binaryTypeOf('/srv/app/Manual.PDF') // 'application/pdf'
 */
export function binaryTypeOf(path: string): string {
  return BINARY_BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream';
}
