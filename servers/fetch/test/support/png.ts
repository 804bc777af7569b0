/**
 * Real PNG files for the image tests, built byte by byte (signature, IHDR, IDAT, IEND with their
 * CRCs), so a test can ask for any size, or for a header that promises a huge image and nothing
 * after it.
 */
import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.byteLength);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of `width`×`height` grey pixels; with `headerOnly`, just its signature and IHDR.
 *
 * @example
 * ```ts
 * server.route('/small.png', text(png(6, 4), 'image/png'));
 * ```
 */
export function png(width: number, height: number, headerOnly = false): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
  ]);
  if (headerOnly) return head;
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([head, chunk('IDAT', deflateSync(rows)), chunk('IEND', new Uint8Array())]);
}
