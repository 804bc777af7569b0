/**
 * fetch_image's download: through the guarded client, reading the dimensions from the first
 * chunks and refusing (and hanging up) as soon as they pass the pixel cap, then reading the rest
 * under the byte cap. Nothing is decoded here; the caps protect whoever renders the image.
 */
import { UserError } from '@mcpkit/core/errors';
import { shownUrl } from '../content/shown.js';
import type { FetchProgress } from '../net/body-reader.js';
import type { GuardedClient } from '../net/guarded-client.js';
import {
  checkDimensions,
  DEFAULT_IMAGE_LIMITS,
  type ImageHeader,
  type ImageLimits,
  probeImage,
} from './image-probe.js';

/** A fetched image within the caps. */
export interface FetchedImage extends ImageHeader {
  /** The URL that answered, after redirects. */
  url: string;
  bytes: Uint8Array;
}

/** Options of one image fetch. */
export interface FetchImageOptions {
  signal?: AbortSignal;
  limits?: Partial<ImageLimits>;
  onProgress?: (progress: FetchProgress) => void;
}

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp;q=0.9,image/*;q=0.5';

/**
 * Fetches one image, refusing what is not PNG, JPEG, GIF or WebP, too many pixels or too many bytes.
 *
 * @example
 * ```ts
 * const image = await fetchImage(client, 'https://example.com/chart.png');
 * // { mimeType: 'image/png', width: 800, height: 600, bytes, url }
 * ```
 */
export async function fetchImage(
  client: GuardedClient,
  url: string,
  options: FetchImageOptions = {},
): Promise<FetchedImage> {
  const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...options.limits };
  const response = await client.open(url, {
    accept: ACCEPT,
    limits: { maxBytes: limits.maxBytes },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  // The URL that answered (a redirect may have chosen it) goes into sentences: shown capped.
  const where = shownUrl(response.url.href);
  try {
    // The status only: its reason phrase is free text the server writes.
    if (response.status !== 200)
      throw new UserError(`${where} answered ${response.status}; check the image URL.`);
    const parts: Uint8Array[] = [];
    let size = 0;
    let header: ImageHeader | undefined;
    for await (const chunk of response.chunks()) {
      parts.push(chunk);
      size += chunk.byteLength;
      if (header) continue;
      header = probeImage(Buffer.concat(parts, size), where);
      if (header) checkDimensions(header, limits, where);
      else if (size >= limits.headerBytes)
        throw new UserError(
          `Could not read the dimensions of ${where} from its first ${limits.headerBytes} bytes.`,
        );
    }
    const bytes = Buffer.concat(parts, size);
    header ??= probeImage(bytes, where);
    if (!header) throw new UserError(`${where} is not a complete PNG, JPEG, GIF or WebP image.`);
    checkDimensions(header, limits, where);
    return {
      ...header,
      url: response.url.href,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    };
  } finally {
    await response.close();
  }
}
