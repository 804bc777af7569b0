/**
 * RootSet.resolve on the forms an input can take: control characters, ~, file:// URIs, Unicode
 * normalisation, long inputs, and Windows string forms (checked on every platform).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RootSet } from '../src/roots/root-set.js';
import { box, denied, expectUserError, roots, useSandbox } from './roots-root-set-kit.js';

useSandbox();

describe('RootSet.resolve: input forms', () => {
  it('rejects NUL and other control characters', async () => {
    for (const input of ['inside.txt\u0000.png', `${'a'}\u0000b`, 'a\tb', 'a\nb', 'a\u001bb', 'a\u007fb']) {
      const message = await denied(input);
      expect(message).toContain('control character');
      expect(message).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  it('rejects the empty string', async () => {
    await denied('');
  });

  it('expands ~ inside an allowed root', async () => {
    await mkdir(path.join(box.allowed, 'home'));
    await writeFile(path.join(box.allowed, 'home', 'notes.md'), 'n');
    const r = await roots.resolve('~/notes.md');
    expect(r.real).toBe(path.join(box.allowed, 'home', 'notes.md'));
    expect((await roots.resolve('~')).display).toBe('allowed/home');
  });

  it('denies ~ paths that land outside, and ~user forms', async () => {
    await denied('~/../../outside/secret.txt');
    const outsideHome = await RootSet.create([box.allowed], { home: box.outside });
    await expectUserError(outsideHome.resolve('~/secret.txt'), '~/secret.txt', [box.tmp]);
    const message = await denied('~root/.ssh/id_rsa');
    expect(message).toContain('~name');
  });

  it('accepts file:// URIs inside and denies file:///etc/passwd and other schemes', async () => {
    const inside = `file://${path.join(box.allowed, 'inside.txt')}`;
    expect((await roots.resolve(inside)).display).toBe('allowed/inside.txt');
    expect((await roots.resolve(`file://localhost${path.join(box.allowed, 'inside.txt')}`)).exists).toBe(
      true,
    );
    await denied('file:///etc/passwd');
    expect(await denied('http://example.com/x')).toContain('unsupported scheme');
    expect(await denied('file://evil.example/share/x')).toContain('another host');
    expect(await denied(`file://${box.allowed}/a%00b`)).toContain('control character');
  });

  it('resolves an NFC input to a file stored with an NFD name', async () => {
    const nfd = 'cafe\u0301.txt';
    await writeFile(path.join(box.allowed, nfd), 'nfd');
    const r = await roots.resolve('caf\u00e9.txt');
    expect(r.exists).toBe(true);
    expect(await readFile(r.real, 'utf8')).toBe('nfd');
  });

  it('creates new names in NFC form', async () => {
    const r = await roots.resolve('cafe\u0301-new.txt', { mode: 'write' });
    expect(path.basename(r.real)).toBe('caf\u00e9-new.txt');
  });

  it('truncates and escapes long inputs in messages', async () => {
    const input = `/etc/${'x'.repeat(500)}`;
    const message = await expectUserError(roots.resolve(input), 'never-present', [box.tmp]);
    expect(message.length).toBeLessThan(400);
    expect(message).toContain('…');
  });
});

describe('RootSet.resolve: Windows string forms (checked on every platform)', () => {
  it.each([
    'C:\\allowed_evil',
    'c:\\ALLOWED\\x',
    '\\\\?\\C:\\allowed\\..\\secret',
    '\\\\.\\C:\\allowed\\x',
    '\\\\localhost\\C$\\allowed\\x',
    'C:\\allowed\\.env::$DATA',
    'sub\\.env::$DATA',
    'C:\\allowed\\.env.',
    'sub\\.env.',
    'C:\\allowed\\.env ',
    'sub\\.env ',
    'C:\\allowed\\CON',
    'sub\\con',
    'C:\\allowed\\AUX.txt',
    'sub\\aux.TXT',
    'sub\\nul',
    'sub\\COM1.log',
    'sub\\LPT9',
    'C:\\PROGRA~1',
    'C:\\allowed\\GIT~1\\config',
    'GIT~1\\config',
  ])('rejects %s', async (input) => {
    await denied(input);
  });

  it('keeps POSIX names that merely look like Windows (a:b, CON, x.)', async () => {
    if (process.platform === 'win32') return;
    for (const name of ['a:b', 'CON', 'x.', 'PROGRA~1']) {
      expect((await roots.resolve(name, { mode: 'write' })).real).toBe(path.join(box.allowed, name));
    }
  });
});
