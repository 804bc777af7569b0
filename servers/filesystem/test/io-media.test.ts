/**
 * read_media_file returns what the official server returns: images and audio as their own content
 * blocks, and every other file (PDF, archive, font, anything unknown) as an embedded binary
 * resource with its MIME type, within --max-media-bytes.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { world } from './harness.js';
import { ERAS, expectError, ioApp, ok, open, type TestSession, type World } from './io-kit.js';

/** Bytes that are not UTF-8 text, so a blob that survives the trip is byte-exact. */
const BINARY = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f, 0xc3, 0x28, 0x00]);

const FILES: readonly { name: string; bytes: Buffer; mimeType: string }[] = [
  {
    name: 'manual.pdf',
    bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), BINARY]),
    mimeType: 'application/pdf',
  },
  {
    name: 'bundle.zip',
    bytes: Buffer.concat([Buffer.from('PK\u0003\u0004'), BINARY]),
    mimeType: 'application/zip',
  },
  { name: 'Font.WOFF2', bytes: Buffer.concat([Buffer.from('wOF2'), BINARY]), mimeType: 'font/woff2' },
  { name: 'face.ttf', bytes: BINARY, mimeType: 'font/ttf' },
  { name: 'data.bin', bytes: BINARY, mimeType: 'application/octet-stream' },
  { name: 'no-extension', bytes: BINARY, mimeType: 'application/octet-stream' },
];

describe.each(ERAS)('read_media_file for files that are neither image nor audio, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession;

  beforeEach(async () => {
    w = await world();
    await mkdir(join(w.allowed, 'assets'));
    for (const f of FILES) await writeFile(join(w.allowed, 'assets', f.name), f.bytes);
    app = await ioApp([w.allowed]);
    session = await open(app, era);
  });
  afterEach(async () => {
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it.each(FILES)('returns $name as an embedded resource typed $mimeType', async (f) => {
    const result = await session.callTool('read_media_file', { path: `assets/${f.name}` });
    const text = ok(result);
    expect(text).toBe(`File ${f.mimeType}, ${f.bytes.length} bytes, as an embedded resource.`);
    const block = result.content.find((c) => c.type === 'resource');
    expect(block).toEqual({
      type: 'resource',
      resource: {
        uri: pathToFileURL(join(w.allowed, 'assets', f.name)).href,
        mimeType: f.mimeType,
        blob: f.bytes.toString('base64'),
      },
    });
  });

  it('names the file by the file:// URI its resource read answers to', async () => {
    // The full server, which also serves file:// resources.
    const full = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
    const s = await open(full, era);
    try {
      const result = await s.callTool('read_media_file', { path: 'assets/manual.pdf' });
      const block = result.content.find((c) => c.type === 'resource');
      const uri = block?.type === 'resource' ? block.resource.uri : '';
      const read = await s.client.readResource({ uri });
      const content = read.contents[0];
      expect(content && 'blob' in content ? Buffer.from(content.blob, 'base64') : undefined).toEqual(
        FILES[0]?.bytes,
      );
    } finally {
      await s.close();
      await full.close();
    }
  });

  it('refuses a file over --max-media-bytes with one sentence, before reading it', async () => {
    await session.close();
    await app.close();
    app = await ioApp([w.allowed], { settings: { maxMediaBytes: 8 } });
    session = await open(app, era);
    const text = expectError(
      await session.callTool('read_media_file', { path: 'assets/manual.pdf' }),
      w,
      /over the 8-byte limit/,
    );
    expect(text).toBe(
      '"allowed/assets/manual.pdf" is 17 bytes, over the 8-byte limit for media files; the operator can raise the limit.',
    );
    // At the cap exactly it is sent.
    ok(await session.callTool('read_media_file', { path: 'assets/data.bin' }));
  });

  it('still refuses a link that leads outside, and a directory', async () => {
    await writeFile(join(w.outside, 'secret.pdf'), '%PDF secret');
    await symlink(join(w.outside, 'secret.pdf'), join(w.allowed, 'leak.pdf'));
    const leak = expectError(await session.callTool('read_media_file', { path: 'leak.pdf' }), w);
    expect(leak).not.toContain('secret');
    expectError(
      await session.callTool('read_media_file', { path: 'assets' }),
      w,
      /not a regular file|directory/,
    );
  });
});
