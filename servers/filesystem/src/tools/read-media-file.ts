import type { FileHandle } from 'node:fs/promises';
import { UserError } from '@mcpkit/core/errors';
import { throwIfAborted } from '@mcpkit/core/progress';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { binaryTypeOf, MEDIA_EXTENSIONS, mediaTypeOf } from '../fs/mime.js';
import { openRegularFile } from '../fs/safe-open.js';
import { fileUri } from '../resources/file.js';

const CHUNK = 256 * 1024;

/**
 * Returns a file as base64: an image or audio file as an image or audio content block, anything
 * else (a PDF, an archive, a font) as an embedded resource with its MIME type, as the official
 * server does. The size is checked on the open file before anything is read, so an oversized file
 * costs nothing. The resource's URI is the `file://` URI this server's resources use for the file.
 */
export const readMediaFile = defineTool({
  name: 'read_media_file',
  title: 'Read media file',
  description:
    'Reads a file and returns it as base64 data with its MIME type. Image and audio files ' +
    `(${MEDIA_EXTENSIONS.join(', ')}) come back as image or audio content; any other file (PDF, archive, ` +
    'font…) as an embedded resource, typed application/octet-stream when its extension says nothing. Files ' +
    "over the server's media size limit are refused; use read_text_file for text. Only works within the " +
    'allowed directories.',
  input: z.object({ path: z.string().describe('The file to read: an image, audio or any binary file') }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ path }, call) {
    const file = await resolveArg(call, path);
    const media = mediaTypeOf(file.real);
    const cap = call.context.maxMediaBytes;
    const { handle, size } = await openRegularFile(file.real, file.display);
    try {
      if (size > cap) {
        throw new UserError(
          `"${file.display}" is ${size} bytes, over the ${cap}-byte limit for media files; the operator can raise the limit.`,
        );
      }
      const data = await readUpTo(handle, cap, file.display, call.signal);
      if (media) {
        return {
          text: `${media.kind === 'image' ? 'Image' : 'Audio'} ${media.mimeType}, ${data.length} bytes.`,
          content: [{ type: media.kind, data: data.toString('base64'), mimeType: media.mimeType }],
        };
      }
      const mimeType = binaryTypeOf(file.real);
      return {
        text: `File ${mimeType}, ${data.length} bytes, as an embedded resource.`,
        content: [
          {
            type: 'resource',
            resource: { uri: fileUri(file.real), mimeType, blob: data.toString('base64') },
          },
        ],
      };
    } finally {
      await handle.close();
    }
  },
});

// Reads to the end, but never more than `cap` bytes: the file may have grown since it was measured.
async function readUpTo(
  handle: FileHandle,
  cap: number,
  display: string,
  signal: AbortSignal,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    throwIfAborted(signal);
    const buffer = Buffer.alloc(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, total);
    if (bytesRead === 0) return Buffer.concat(parts, total);
    parts.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > cap) {
      throw new UserError(`"${display}" grew past the ${cap}-byte limit for media files while it was read.`);
    }
  }
}
