/**
 * Reads an image's format and dimensions from its first bytes, before the rest is downloaded and
 * long before anything decodes it. A 30000×30000 PNG is a few kilobytes on the wire and 3.6 GB
 * of pixels once decoded (a decompression bomb for whoever renders it), so the pixel cap is
 * checked on the header. Only PNG, JPEG, GIF and WebP are accepted, recognised by their magic
 * bytes, so image-size's other parsers never see untrusted input.
 */
import { UserError } from '@mcpkit/core/errors';
import { imageSize } from 'image-size';

/** Caps for fetch_image. */
export interface ImageLimits {
  /** Bytes of the image file. */
  maxBytes: number;
  /** Width × height. */
  maxPixels: number;
  /** Longest side. */
  maxSide: number;
  /** Bytes read while looking for the dimensions before giving up. */
  headerBytes: number;
}

/** Defaults: a large photo fits, a bomb does not. */
export const DEFAULT_IMAGE_LIMITS: Readonly<ImageLimits> = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 50_000_000,
  maxSide: 16_384,
  headerBytes: 256 * 1024,
});

/** Format and size read from the header. */
export interface ImageHeader {
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  width: number;
  height: number;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

/** The accepted format the magic bytes announce, or `undefined` (too short or another format). */
export function sniffImageType(bytes: Uint8Array): ImageHeader['mimeType'] | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return undefined;
}

/**
 * The header of an accepted image, or `undefined` when `bytes` do not hold it yet. Throws a
 * {@link UserError} when the bytes are enough to tell it is no accepted image.
 */
export function probeImage(bytes: Uint8Array, url: string): ImageHeader | undefined {
  if (bytes.byteLength < 12) return undefined;
  const mimeType = sniffImageType(bytes);
  if (!mimeType)
    throw new UserError(
      `${url} is not a PNG, JPEG, GIF or WebP image; fetch_image returns only those formats.`,
    );
  try {
    const { width, height } = imageSize(bytes);
    if (!Number.isFinite(width) || !Number.isFinite(height) || width < 1 || height < 1) return undefined;
    return { mimeType, width, height };
  } catch {
    return undefined;
  }
}

/** Throws a {@link UserError} when the dimensions pass the caps. */
export function checkDimensions(header: ImageHeader, limits: ImageLimits, url: string): void {
  const { width, height } = header;
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels)
    throw new UserError(
      `${url} is ${width}×${height} pixels, over the limit of ${limits.maxPixels} pixels or ${limits.maxSide} per side; fetch a smaller version of the image.`,
    );
}
