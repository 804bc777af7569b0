/**
 * fetch_image in both eras: an image content block with its size, the pixel cap read from the
 * header, a byte cap that keeps the base64 image within one tool result, a sentence for what is
 * not an image, and robots.txt.
 */
import type { ImageContent } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { imageByteCap } from '../src/tools/fetch-image.js';
import { text } from './support/local-server.js';
import { png } from './support/png.js';
import { ERAS, expectSentence, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

describe.each(ERAS)('fetch_image, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('returns the image as an image block, with its format and size in the text', async () => {
    fx = await toolsFixture(era);
    const image = png(6, 4);
    fx.server.route('/small.png', text(image, 'image/png'));
    const { result, text: said } = await fx.call('fetch_image', { url: fx.url('/small.png') });
    expect(result.isError).toBeFalsy();
    expect(said).toBe(
      `Image from ${fx.url('/small.png')}: image/png, 6×4 pixels, ${image.byteLength} bytes.`,
    );
    const block = result.content[1] as ImageContent;
    expect(block.type).toBe('image');
    expect(block.mimeType).toBe('image/png');
    expect(Buffer.from(block.data, 'base64').equals(image)).toBe(true);
  });

  it('refuses an image with too many pixels from its header', async () => {
    fx = await toolsFixture(era);
    fx.server.route(
      '/bomb.png',
      text(Buffer.concat([png(30_000, 30_000, true), Buffer.alloc(64 * 1024)]), 'image/png'),
    );
    expectSentence(
      (await fx.call('fetch_image', { url: fx.url('/bomb.png') })).result,
      /is 30000×30000 pixels, over the limit of 50000000 pixels or 16384 per side; fetch a smaller version/,
    );
  });

  it('refuses an image whose base64 form would not fit in one result', async () => {
    fx = await toolsFixture(era, { app: { outputLimitBytes: 16_384 } });
    const cap = imageByteCap(16_384);
    expect(Math.ceil(cap / 3) * 4).toBeLessThanOrEqual(16_384 - 1000);
    fx.server.route('/heavy.png', text(Buffer.concat([png(10, 10), Buffer.alloc(20 * 1024)]), 'image/png'));
    expectSentence(
      (await fx.call('fetch_image', { url: fx.url('/heavy.png') })).result,
      new RegExp(`larger than ${cap} bytes, so it was not read`),
    );
    fx.server.route('/light.png', text(png(10, 10), 'image/png'));
    expect((await fx.call('fetch_image', { url: fx.url('/light.png') })).result.isError).toBeFalsy();
  });

  it('says what is not an image, and honours robots.txt', async () => {
    fx = await toolsFixture(era);
    expectSentence(
      (await fx.call('fetch_image', { url: fx.url('/plain') })).result,
      /is not a PNG, JPEG, GIF or WebP image/,
    );
    fx.server.route('/private.png', text(png(2, 2), 'image/png'));
    expectSentence((await fx.call('fetch_image', { url: fx.url('/private.png') })).result, /robots\.txt/);
    expect(fx.server.hits('/private.png')).toBe(0);
    expectSentence(
      (await fx.call('fetch_image', { url: 'data:image/png;base64,AAAA' })).result,
      /only http and https/,
    );
  });
});
