import { chmod, link, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { treeHash, world } from './harness.js';
import { asker, ERAS, expectError, ioApp, ok, open, type TestSession, type World } from './io-kit.js';

describe.each(ERAS)('writing files, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession | undefined;
  let answer: 'accept' | 'decline';
  let ask: ReturnType<typeof asker>;

  beforeEach(async () => {
    w = await world();
    await writeFile(join(w.allowed, 'old.txt'), 'old\n');
    app = await ioApp([w.allowed]);
    answer = 'accept';
    ask = asker(() => answer);
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await app.close();
    await w.cleanup();
  });

  async function asking() {
    session = await open(app, era, ask);
    return session;
  }
  async function blind() {
    session = await open(app, era);
    return session;
  }

  it('creates a new file without asking, and says so', async () => {
    const s = await asking();
    const text = ok(await s.callTool('write_file', { path: 'new.txt', content: 'héllo' }));
    expect(text).toBe('Created "new.txt" (6 bytes written).');
    expect(await readFile(join(w.allowed, 'new.txt'), 'utf8')).toBe('héllo');
    expect(ask.asked).toEqual([]);
    const tool = (await s.client.listTools()).tools.find((t) => t.name === 'write_file');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('replaces an existing file in one call, as the official server does, asking nothing', async () => {
    const s = await asking();
    const text = ok(await s.callTool('write_file', { path: 'old.txt', content: 'new' }));
    expect(text).toBe('Replaced "old.txt" (3 bytes written).');
    expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('new');
    expect(ask.asked).toEqual([]);
    await s.close();
    const t = await blind();
    ok(await t.callTool('write_file', { path: join(w.allowed, 'old.txt'), content: 'newer' }));
    expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('newer');
  });

  describe('with --confirm-overwrite', () => {
    beforeEach(async () => {
      await app.close();
      app = await ioApp([w.allowed], { settings: { confirmOverwrite: true } });
    });

    it('asks before replacing, keeps the file on a decline and replaces it on an accept', async () => {
      const s = await asking();
      answer = 'decline';
      // The model's confirm: true is not the user's consent when the client can ask.
      const declined = ok(await s.callTool('write_file', { path: 'old.txt', content: 'new', confirm: true }));
      expect(declined).toBe('"old.txt" was left unchanged: the user declined to overwrite it.');
      expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('old\n');
      answer = 'accept';
      expect(ok(await s.callTool('write_file', { path: 'old.txt', content: 'new' }))).toBe(
        'Replaced "old.txt" (3 bytes written).',
      );
      expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('new');
      expect(ask.asked).toEqual(['Overwrite "old.txt"?', 'Overwrite "old.txt"?']);
    });

    it('does not ask to create a new file', async () => {
      const s = await asking();
      ok(await s.callTool('write_file', { path: 'fresh.txt', content: 'x' }));
      expect(ask.asked).toEqual([]);
      expect(await readFile(join(w.allowed, 'fresh.txt'), 'utf8')).toBe('x');
    });

    it('needs confirm: true to replace when the client cannot ask', async () => {
      const s = await blind();
      const text = expectError(
        await s.callTool('write_file', { path: 'old.txt', content: 'new' }),
        w,
        /confirm/,
      );
      expect(text).toBe(
        'Overwrite "old.txt"? This client cannot ask the user, so call again with "confirm": true once the user has agreed.',
      );
      expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('old\n');
      ok(await s.callTool('write_file', { path: 'old.txt', content: 'new', confirm: true }));
      expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('new');
    });

    it('is said in the instructions of the full server', async () => {
      const plain = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
      const asks = createFilesystemApp({ roots: await RootSet.create([w.allowed]), confirmOverwrite: true });
      try {
        const a = await open(plain, era);
        const b = await open(asks, era);
        expect(a.client.getInstructions() ?? '').not.toContain('write_file asks');
        expect(b.client.getInstructions() ?? '').toContain('write_file asks');
        await a.close();
        await b.close();
      } finally {
        await plain.close();
        await asks.close();
      }
    });
  });

  it('keeps the mode of a replaced file and leaves no temporary file behind', async () => {
    await chmod(join(w.allowed, 'old.txt'), 0o600);
    const s = await asking();
    ok(await s.callTool('write_file', { path: 'old.txt', content: 'secret-ish' }));
    expect((await stat(join(w.allowed, 'old.txt'))).mode & 0o777).toBe(0o600);
    expect(await readdir(w.allowed)).toEqual(['old.txt']);
  });

  it('breaks a hard link to a file outside instead of writing through it', async () => {
    const before = await treeHash(w.outside);
    await writeFile(join(w.outside, 'victim'), 'victim\n');
    const withVictim = await treeHash(w.outside);
    expect(withVictim).not.toBe(before);
    await link(join(w.outside, 'victim'), join(w.allowed, 'hl'));
    const s = await asking();
    ok(await s.callTool('write_file', { path: 'hl', content: 'pwned' }));
    expect(await readFile(join(w.outside, 'victim'), 'utf8')).toBe('victim\n');
    expect(await readFile(join(w.allowed, 'hl'), 'utf8')).toBe('pwned');
    expect(await treeHash(w.outside)).toBe(withVictim);
  });

  it('refuses a symlink that points outside, and a dangling one, leaving outside untouched', async () => {
    await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak'));
    await symlink(join(w.outside, 'new.txt'), join(w.allowed, 'dangling'));
    await symlink(w.outside, join(w.allowed, 'd'));
    const before = await treeHash(w.outside);
    const s = await blind();
    expectError(
      await s.callTool('write_file', { path: 'leak', content: 'x', confirm: true }),
      w,
      /symbolic link/,
    );
    expectError(
      await s.callTool('write_file', { path: 'dangling', content: 'x', confirm: true }),
      w,
      /symbolic link/,
    );
    expectError(await s.callTool('write_file', { path: 'd/new.txt', content: 'x', confirm: true }), w);
    expectError(await s.callTool('write_file', { path: '../outside/x.txt', content: 'x' }), w, /outside/);
    expect(await treeHash(w.outside)).toBe(before);
  });

  it('writes the real file behind a symlink that stays inside, keeping the link', async () => {
    await symlink('old.txt', join(w.allowed, 'alias'));
    const s = await blind();
    const text = ok(await s.callTool('write_file', { path: 'alias', content: 'via link' }));
    // Which file changed, in the display form: never the host path the caller did not send.
    expect(text).toBe('Replaced "alias" (that is "allowed/old.txt") (8 bytes written).');
    expect(text).not.toContain(w.base);
    expect(await readFile(join(w.allowed, 'old.txt'), 'utf8')).toBe('via link');
    expect(await readFile(join(w.allowed, 'alias'), 'utf8')).toBe('via link');
  });

  it('needs an existing parent directory, and refuses to write over a directory', async () => {
    await mkdir(join(w.allowed, 'dir'));
    const s = await blind();
    expectError(
      await s.callTool('write_file', { path: 'no/such/f.txt', content: 'x' }),
      w,
      /create_directory/,
    );
    expectError(
      await s.callTool('write_file', { path: 'dir', content: 'x', confirm: true }),
      w,
      /is a directory/,
    );
  });

  it('refuses secret names unless allowed', async () => {
    const s = await blind();
    for (const path of ['.env', 'id_rsa', '.ENV.']) {
      expectError(await s.callTool('write_file', { path, content: 'x' }), w, /holds secrets/);
    }
    await s.close();
    await app.close();
    app = await ioApp([w.allowed], { settings: { allowSensitive: true } });
    const t = await blind();
    ok(await t.callTool('write_file', { path: '.env', content: 'A=1\n' }));
    expect(await readFile(join(w.allowed, '.env'), 'utf8')).toBe('A=1\n');
  });

  it('creates directories with their parents, idempotently, inside the roots only', async () => {
    const s = await blind();
    expect(ok(await s.callTool('create_directory', { path: 'a/b/c' }))).toBe('Created directory "a/b/c".');
    expect((await stat(join(w.allowed, 'a', 'b', 'c'))).isDirectory()).toBe(true);
    expect(ok(await s.callTool('create_directory', { path: 'a/b/c' }))).toMatch(/already exists/);
    expectError(await s.callTool('create_directory', { path: 'old.txt' }), w, /not a directory/);
    expectError(await s.callTool('create_directory', { path: 'old.txt/sub' }), w, /not a directory/);
    await symlink(w.outside, join(w.allowed, 'd'));
    await symlink(join(w.outside, 'nowhere'), join(w.allowed, 'dangling'));
    const before = await treeHash(w.outside);
    expectError(await s.callTool('create_directory', { path: 'd/sub' }), w, /symbolic link/);
    expectError(await s.callTool('create_directory', { path: 'dangling/sub' }), w, /symbolic link/);
    expectError(await s.callTool('create_directory', { path: '../outside/x' }), w, /outside/);
    expect(await treeHash(w.outside)).toBe(before);
  });

  it('is hidden in read-only mode', async () => {
    await app.close();
    app = await ioApp([w.allowed], { readOnly: true });
    const s = await blind();
    const names = (await s.client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'get_file_info',
        'list_allowed_directories',
        'read_file',
        'read_media_file',
        'read_multiple_files',
        'read_text_file',
      ].sort(),
    );
  });
});
