import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { bytesReadBy } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textOf, world } from './harness.js';
import { ERAS, expectError, ioApp, ok, open, type TestSession, type World } from './io-kit.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

describe.each(ERAS)('reading files, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession;
  const call = (name: string, args: Record<string, unknown>) => session.callTool(name, args);

  beforeEach(async () => {
    w = await world();
    await writeFile(join(w.allowed, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\nfour\r\nfive');
    await writeFile(join(w.allowed, 'lf.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    await writeFile(join(w.allowed, 'pic.png'), PNG);
    await writeFile(join(w.allowed, 'song.MP3'), Buffer.from('ID3fake'));
    await writeFile(join(w.allowed, 'doc.pdf'), '%PDF-1.4');
    app = await ioApp([w.allowed]);
    session = await open(app, era);
  });
  afterEach(async () => {
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it('reads a whole file, relative or absolute, and the deprecated read_file alias does the same', async () => {
    expect(ok(await call('read_text_file', { path: 'lf.txt' }))).toBe('one\ntwo\nthree\nfour\nfive\n');
    expect(ok(await call('read_text_file', { path: join(w.allowed, 'crlf.txt') }))).toBe(
      'one\ntwo\nthree\nfour\nfive',
    );
    expect(ok(await call('read_file', { path: 'lf.txt', head: 1 }))).toBe('one');
    const tools = (await session.client.listTools()).tools;
    const alias = tools.find((t) => t.name === 'read_file');
    expect(alias?.description).toMatch(/deprecated/i);
    const reader = tools.find((t) => t.name === 'read_text_file');
    expect(reader?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(reader?.outputSchema).toBeUndefined();
  });

  it.each(['crlf.txt', 'lf.txt'])('takes head, tail and offset ranges of %s', async (name) => {
    expect(ok(await call('read_text_file', { path: name, head: 2 }))).toBe('one\ntwo');
    expect(ok(await call('read_text_file', { path: name, tail: 2 }))).toBe('four\nfive');
    expect(ok(await call('read_text_file', { path: name, offset: 2, limit: 3 }))).toBe('two\nthree\nfour');
    expect(ok(await call('read_text_file', { path: name, offset: 4 }))).toBe('four\nfive');
    expect(ok(await call('read_text_file', { path: name, limit: 1 }))).toBe('one');
  });

  it('refuses mixed line selections and an offset past the end', async () => {
    expectError(
      await call('read_text_file', { path: 'lf.txt', head: 1, tail: 1 }),
      w,
      /only one of head, tail/,
    );
    expectError(await call('read_text_file', { path: 'lf.txt', tail: 1, offset: 2 }), w, /only one of/);
    expectError(await call('read_text_file', { path: 'lf.txt', offset: 9 }), w, /has 5 lines/);
  });

  it('reads a 10 MiB file within the output limit and continues from the offset it names', async () => {
    const line = `${'z'.repeat(99)}\n`;
    await writeFile(join(w.allowed, 'big.txt'), line.repeat(100 * 1024 + 10));
    const limit = app.outputLimitBytes;
    const first = ok(await call('read_text_file', { path: 'big.txt' }));
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(limit);
    const next = Number(/offset=(\d+)/.exec(first)?.[1]);
    const shown = first.split('\n').filter((l) => l.startsWith('zzz')).length;
    expect(next).toBe(shown + 1);
    const second = ok(await call('read_text_file', { path: 'big.txt', offset: next, limit: 3 }));
    expect(second).toBe([line, line, line].join('').trimEnd());
    const tail = ok(await call('read_text_file', { path: 'big.txt', tail: 2 }));
    expect(tail).toBe(`${'z'.repeat(99)}\n${'z'.repeat(99)}`);
  });

  it('reads the head and tail of a sparse 4 GiB file without reading it all', async () => {
    const path = join(w.allowed, 'sparse.log');
    await writeFile(path, 'first line\n'.repeat(2000));
    await truncate(path, 4 * 1024 ** 3);
    await writeFile(path, '\nlast line\n', { flag: 'a' });
    const before = await bytesReadBy(process.pid);
    expect(ok(await call('read_text_file', { path: 'sparse.log', tail: 1 }))).toBe('last line');
    expect(ok(await call('read_text_file', { path: 'sparse.log', head: 2 }))).toBe('first line\nfirst line');
    // Counted, not timed: both reads together took a sliver of the 4 GiB (where /proc can tell).
    const after = await bytesReadBy(process.pid);
    if (before !== undefined && after !== undefined) expect(after - before).toBeLessThan(64 * 1024 ** 2);
  });

  it('refuses a binary file, pointing to read_media_file', async () => {
    expectError(await call('read_text_file', { path: 'pic.png' }), w, /binary.*read_media_file/);
  });

  it('refuses a FIFO without hanging, and a directory', async () => {
    execFileSync('mkfifo', [join(w.allowed, 'pipe')]);
    // A FIFO with no writer never gives data: that the call answers, with this error, is the guard;
    // a hang is left to the test's timeout.
    expectError(await call('read_text_file', { path: 'pipe' }), w, /not a regular file/);
    await mkdir(join(w.allowed, 'sub'));
    expectError(await call('read_text_file', { path: 'sub' }), w, /directory|not a regular file/);
    expectError(await call('read_text_file', { path: 'missing.txt' }), w, /does not exist/);
  });

  it('returns images and audio as base64 with their MIME type', async () => {
    const image = await call('read_media_file', { path: 'pic.png' });
    ok(image);
    expect(image.content).toContainEqual({
      type: 'image',
      data: PNG.toString('base64'),
      mimeType: 'image/png',
    });
    const audio = await call('read_media_file', { path: 'song.MP3' });
    expect(audio.content).toContainEqual({
      type: 'audio',
      data: Buffer.from('ID3fake').toString('base64'),
      mimeType: 'audio/mpeg',
    });
    // Anything else comes back as an embedded resource (see io-media.test.ts).
    expect((await call('read_media_file', { path: 'doc.pdf' })).content).toContainEqual({
      type: 'resource',
      resource: expect.objectContaining({ mimeType: 'application/pdf' }),
    });
  });

  it('refuses media over the size cap before reading it', async () => {
    await session.close();
    await app.close();
    app = await ioApp([w.allowed], { settings: { maxMediaBytes: 10 } });
    session = await open(app, era);
    const text = expectError(
      await call('read_media_file', { path: 'pic.png' }),
      w,
      /20 bytes, over the 10-byte limit/,
    );
    expect(text).toContain('allowed/pic.png');
  });

  it('reads several files, with a bad path inline, progress per file', async () => {
    const seen: number[] = [];
    const r = await session.callTool(
      'read_multiple_files',
      { paths: ['lf.txt', 'missing.txt', join(w.outside, 'secret.txt'), 'crlf.txt'] },
      { onprogress: (p) => seen.push(p.progress) },
    );
    const text = ok(r);
    // Each file under the caller's own path, as the official server shows it.
    expect(text).toContain('lf.txt:\none\ntwo');
    expect(text).not.toContain(`${join(w.allowed, 'lf.txt')}:`);
    expect(text).toContain('"missing.txt": Error - "allowed/missing.txt" does not exist.');
    expect(text).toContain(`"${join(w.outside, 'secret.txt')}": Error - Access denied`);
    expect(text).toContain('crlf.txt:\none\ntwo');
    expect(text).not.toContain('top secret');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('shares one output budget across files and names those cut or skipped', async () => {
    await session.close();
    await app.close();
    app = await ioApp([w.allowed], { outputLimitBytes: 4096 });
    session = await open(app, era);
    const body = Array.from({ length: 600 }, (_, i) => `row ${i}`).join('\n');
    for (const n of ['a', 'b', 'c']) await writeFile(join(w.allowed, `${n}.txt`), body);
    const text = ok(await call('read_multiple_files', { paths: ['a.txt', 'b.txt', 'c.txt'] }));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/Cut to fit the output limit.*a\.txt/);
    expect(text).toMatch(/Skipped, the output limit was reached: .*b\.txt, .*c\.txt\./);
    expect(text).toMatch(/read_text_file, path ".*a\.txt", offset=\d+/);
  });

  it('stops between files when cancelled', async () => {
    for (let i = 0; i < 100; i++) await writeFile(join(w.allowed, `n${i}.txt`), 'x\n'.repeat(20_000));
    const controller = new AbortController();
    const pending = session.callTool(
      'read_multiple_files',
      { paths: Array.from({ length: 100 }, (_, i) => `n${i}.txt`) },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(pending).rejects.toThrow();
  });

  it('refuses secret files unless the operator allows them', async () => {
    await writeFile(join(w.allowed, '.env'), 'TOKEN=hunter2\n');
    await writeFile(join(w.allowed, '.ENV.'), 'TOKEN=hunter2\n');
    await writeFile(join(w.allowed, 'id_rsa'), 'PRIVATE KEY\n');
    await mkdir(join(w.allowed, '.ssh'));
    await writeFile(join(w.allowed, '.ssh', 'config'), 'Host x\n');
    await symlink(join(w.allowed, '.env'), join(w.allowed, 'innocent.txt'));
    const names = ['.env', '.ENV.', 'id_rsa', '.ssh/config', 'innocent.txt'];
    for (const path of names) {
      const r = await call('read_text_file', { path });
      expectError(r, w, /holds secrets/);
      expect(textOf(r)).not.toMatch(/hunter2|PRIVATE|Host x/);
    }
    const many = ok(await call('read_multiple_files', { paths: names }));
    expect(many).not.toMatch(/hunter2|PRIVATE|Host x/);
    await session.close();
    await app.close();
    app = await ioApp([w.allowed], { settings: { allowSensitive: true } });
    session = await open(app, era);
    expect(ok(await call('read_text_file', { path: '.env' }))).toBe('TOKEN=hunter2\n');
    expect(ok(await call('read_text_file', { path: '.ssh/config' }))).toBe('Host x\n');
  });

  it('refuses links that lead outside, and paths outside, without naming host paths', async () => {
    await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak'));
    expectError(await call('read_text_file', { path: 'leak' }), w, /symbolic link/);
    expectError(await call('read_text_file', { path: '../outside/secret.txt' }), w, /outside the allowed/);
    expectError(await call('read_media_file', { path: 'leak' }), w);
  });
});
