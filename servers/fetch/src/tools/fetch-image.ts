/**
 * An image from the web as an image content block: PNG, JPEG, GIF or WebP only, recognised by its
 * bytes; its dimensions are read from the header and checked against the pixel caps before the
 * rest is downloaded, so a small file that decodes to gigabytes is refused early. Its size is
 * capped by the image limit and by what one tool result may carry once base64-encoded.
 */
import * as z from 'zod';
import { shownUrl } from '../content/shown.js';
import { defineTool } from '../context.js';
import { fetchImage } from '../image/fetch-image.js';
import { DEFAULT_IMAGE_LIMITS } from '../image/image-probe.js';
import { checkUrl } from '../net/url-check.js';
import { downloadProgress } from './support/read-page.js';

/** Bytes of a result kept for its text. */
const TEXT_BYTES = 1024;

/** The largest file whose base64 form fits in `limitBytes`, within the image limit. */
export function imageByteCap(limitBytes: number): number {
  // base64 takes 4 bytes per 3, plus at most 4 of padding: well inside the text allowance.
  const fits = Math.floor(((limitBytes - TEXT_BYTES) * 3) / 4);
  return Math.max(1, Math.min(DEFAULT_IMAGE_LIMITS.maxBytes, fits));
}

export const fetchImageTool = defineTool({
  name: 'fetch_image',
  title: 'Fetch an image',
  description:
    'Fetches a PNG, JPEG, GIF or WebP image from a URL and returns it as an image, with its size. Images with too ' +
    'many pixels or bytes are refused.',
  input: z.object({
    url: z.string().min(1).describe('The http or https URL of the image'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  task: 'optional',
  async run({ url }, call) {
    const { context } = call;
    const target = checkUrl(url, context.policy);
    await context.robots?.assertAllowed(target.href, call.signal);
    const image = await fetchImage(context.client, target.href, {
      signal: call.signal,
      limits: { maxBytes: imageByteCap(call.app.outputLimitBytes) },
      onProgress: downloadProgress(call, target),
    });
    const size = image.bytes.byteLength;
    return {
      text: `Image from ${shownUrl(image.url)}: ${image.mimeType}, ${image.width}×${image.height} pixels, ${size} bytes.`,
      content: [
        { type: 'image', mimeType: image.mimeType, data: Buffer.from(image.bytes).toString('base64') },
      ],
    };
  },
});
