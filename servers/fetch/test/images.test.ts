/**
 * fetch_image's download: formats by magic bytes, dimensions from the header, the pixel and side
 * caps enforced before the body is read (a 30000×30000 PNG header followed by an endless stream
 * is refused after a few kilobytes), the byte cap, and refusals for non-images and bad statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImage } from '../src/image/fetch-image.js';
import { probeImage, sniffImageType } from '../src/image/image-probe.js';
import { expectRefusal, expectStillWorks, OK_HOST } from './support/attack-kit.js';
import { rejection, testClient } from './support/clients.js';
import { type Handler, type LocalServer, startServer, text } from './support/local-server.js';
import { png } from './support/png.js';

const GIF = Buffer.from([...Buffer.from('GIF89a'), 0x40, 0x01, 0xf0, 0x00, 0, 0, 0, 0x3b]);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x78, 0x00, 0xa0, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01,
  0x03, 0x11, 0x01, 0xff, 0xd9,
]);

let server: LocalServer;
let bombBytes = 0;
/** Called when the client hangs up on the bomb. */
let bombClosed: (value: unknown) => void = () => undefined;

/** A PNG header, then filler forever (until the client hangs up). */
const bomb: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'image/png' });
  res.write(png(30_000, 30_000, true));
  const filler = Buffer.alloc(16 * 1024);
  res.once('close', () => bombClosed(undefined));
  const pump = () => {
    while (!res.destroyed) {
      bombBytes += filler.byteLength;
      if (!res.write(filler)) return void res.once('drain', pump);
    }
  };
  pump();
};

beforeAll(async () => {
  server = await startServer({
    '/ok': text('fine'),
    '/small.png': text(png(4, 3), 'image/png'),
    '/anim.gif': text(GIF, 'image/gif'),
    '/photo.jpg': text(JPEG, 'image/jpeg'),
    '/mislabelled': text(png(2, 2), 'application/octet-stream'),
    '/bomb.png': bomb,
    '/wide.png': text(png(20_000, 1, true), 'image/png'),
    '/heavy.png': text(Buffer.concat([png(10, 10), Buffer.alloc(300 * 1024)]), 'image/png'),
    '/page.html': text('<html><body>not an image</body></html>'),
    '/drawing.svg': text(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>',
      'image/svg+xml',
    ),
    '/truncated.png': text(
      Buffer.concat([png(10, 10, true).subarray(0, 8), Buffer.alloc(70 * 1024)]),
      'image/png',
    ),
    '/missing.png': (_req, res) => {
      res.writeHead(404);
      res.end();
    },
  });
});
afterAll(() => server.close());

const dns = { [OK_HOST]: ['127.0.0.1'], 'img.test': ['127.0.0.1'] };
const client = () =>
  testClient({ dns, allowHosts: [OK_HOST, 'img.test'], limits: { totalTimeoutMs: 2_000 } });

describe('image header probe', () => {
  it('recognises the four formats by magic bytes and reads their size', () => {
    expect(probeImage(png(4, 3), 'u')).toEqual({ mimeType: 'image/png', width: 4, height: 3 });
    expect(probeImage(GIF, 'u')).toEqual({ mimeType: 'image/gif', width: 320, height: 240 });
    expect(probeImage(JPEG, 'u')).toEqual({ mimeType: 'image/jpeg', width: 160, height: 120 });
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(probeImage(png(4, 3).subarray(0, 10), 'u')).toBeUndefined();
    expect(() => probeImage(Buffer.from('<svg width="1" height="1"></svg>'), 'u')).toThrow(/not a PNG/);
  });
});

describe('fetch_image', () => {
  it.each([
    ['/small.png', 'image/png', 4, 3],
    ['/anim.gif', 'image/gif', 320, 240],
    ['/photo.jpg', 'image/jpeg', 160, 120],
    ['/mislabelled', 'image/png', 2, 2],
  ])('fetches %s as %s %i×%i', async (path, mimeType, width, height) => {
    const c = client();
    const image = await fetchImage(c, server.url(path, 'img.test'));
    expect(image).toMatchObject({ mimeType, width, height, url: server.url(path, 'img.test') });
    await c.close();
  });

  // "At once" is measured in bytes, not ms: the bomb pumps until the client hangs up, so what it
  // managed to write by then is what the client let through (a reader of the whole body would
  // keep it pumping until its byte cap). A client that never hung up is left to the test timeout.
  it('refuses a 30000×30000 PNG from its header and hangs up at once', { timeout: 30_000 }, async () => {
    const c = client();
    const hungUp = new Promise((resolve) => (bombClosed = resolve));
    const error = await rejection(fetchImage(c, server.url('/bomb.png', 'img.test')));
    expectRefusal(error, /30000×30000 pixels, over the limit/);
    await hungUp;
    expect(bombBytes).toBeLessThan(8 * 1024 * 1024);
    await expectStillWorks(c, server);
    await c.close();
  });

  it.each([
    ['/wide.png', /20000×1 pixels/, {}],
    ['/heavy.png', /larger than 204800 bytes/, { maxBytes: 200 * 1024 }],
    ['/page.html', /not a PNG, JPEG, GIF or WebP/, {}],
    ['/drawing.svg', /not a PNG, JPEG, GIF or WebP/, {}],
    ['/truncated.png', /Could not read the dimensions/, { headerBytes: 64 * 1024 }],
    ['/missing.png', /answered 404/, {}],
  ])('refuses %s', async (path, pattern, limits) => {
    const c = client();
    const error = await rejection(fetchImage(c, server.url(path, 'img.test'), { limits }));
    expectRefusal(error, pattern);
    await expectStillWorks(c, server);
    await c.close();
  });

  it('refuses an image URL on a blocked address before dialling', async () => {
    const c = client();
    const before = server.total();
    const error = await rejection(fetchImage(c, `http://[::ffff:127.0.0.1]:${server.port}/small.png`));
    expectRefusal(error, /loopback/);
    expect(server.total()).toBe(before);
    await c.close();
  });
});
