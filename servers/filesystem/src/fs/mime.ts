import { extname } from 'node:path';

/** What read_media_file can return: MCP has content blocks for images and audio only. */
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
