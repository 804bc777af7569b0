import { describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { isWithin } from '../src/roots/containment.js';
import { parsePathInput } from '../src/roots/path-input.js';
import { sanitizeForMessage } from '../src/roots/sanitize.js';
import { pathToRootUri, rootUriToPath } from '../src/roots/uri.js';
import { checkWindowsPath, isWindowsForm } from '../src/roots/windows.js';

const posix = { base: '/srv/app', home: '/home/me', platform: 'linux' as const };
const win = { base: 'C:\\allowed', home: 'C:\\Users\\me', platform: 'win32' as const };

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a rejection');
}

describe('isWithin', () => {
  it('compares by segments, never by string prefix', () => {
    expect(isWithin('/tmp/allowed', '/tmp/allowed', 'linux')).toBe(true);
    expect(isWithin('/tmp/allowed', '/tmp/allowed/a/b', 'linux')).toBe(true);
    expect(isWithin('/tmp/allowed', '/tmp/allowed_evil/x', 'linux')).toBe(false);
    expect(isWithin('/tmp/allowed', '/tmp/allowedX', 'linux')).toBe(false);
    expect(isWithin('/tmp/allowed', '/tmp/allowed/../allowed_evil/x', 'linux')).toBe(false);
    expect(isWithin('/tmp/allowed', '/tmp/allowed/..foo', 'linux')).toBe(true);
    expect(isWithin('/tmp/allowed', 'relative', 'linux')).toBe(false);
  });

  it('is case-insensitive and drive-aware on win32', () => {
    expect(isWithin('C:\\allowed', 'c:\\ALLOWED\\x', 'win32')).toBe(true);
    expect(isWithin('C:\\allowed', 'C:\\allowed_evil', 'win32')).toBe(false);
    expect(isWithin('C:\\allowed', 'D:\\allowed\\x', 'win32')).toBe(false);
  });
});

describe('parsePathInput', () => {
  it('resolves relative paths against the base and normalises ..', () => {
    expect(parsePathInput('src/x.ts', posix)).toBe('/srv/app/src/x.ts');
    expect(parsePathInput('src/../../etc', posix)).toBe('/srv/etc');
    expect(parsePathInput('/etc/passwd', posix)).toBe('/etc/passwd');
  });

  it('expands ~ and ~/ but rejects ~user', () => {
    expect(parsePathInput('~', posix)).toBe('/home/me');
    expect(parsePathInput('~/a', posix)).toBe('/home/me/a');
    expect(parsePathInput('~/../..', posix)).toBe('/');
    expect(rejection(() => parsePathInput('~root/x', posix))).toContain('"~root/x"');
    expect(rejection(() => parsePathInput('~/a', { base: '/srv/app' }))).toContain('no home directory');
    expect(parsePathInput('a/~/b', posix)).toBe('/srv/app/a/~/b');
  });

  it('normalises to NFC', () => {
    expect(parsePathInput('cafe\u0301', posix)).toBe('/srv/app/caf\u00e9');
  });

  it('accepts local file:// URIs only', () => {
    expect(parsePathInput('file:///srv/app/a%20b', posix)).toBe('/srv/app/a b');
    expect(parsePathInput('FILE:///srv/app/x', posix)).toBe('/srv/app/x');
    expect(rejection(() => parsePathInput('https://x.test/a', posix))).toContain('unsupported scheme');
    expect(rejection(() => parsePathInput('file://server/share/x', posix))).toContain('another host');
    expect(rejection(() => parsePathInput('file:///srv/app/a%2Fb', posix))).toContain('not a valid');
    expect(rejection(() => parsePathInput('file:///srv/app/a%0Ab', posix))).toContain('control character');
  });

  it('keeps scheme-looking POSIX names as names', () => {
    expect(parsePathInput('a:b', posix)).toBe('/srv/app/a:b');
    expect(parsePathInput('note:1.md', posix)).toBe('/srv/app/note:1.md');
  });

  it('denies drive-letter paths on POSIX as outside, without a host path', () => {
    const message = rejection(() => parsePathInput('C:\\allowed\\x', posix));
    expect(message).toMatch(/^Access denied: "C:\\allowed\\x" is outside/);
    expect(message).not.toContain('/srv/app');
  });

  it('handles Windows forms on win32', () => {
    expect(parsePathInput('c:\\ALLOWED\\x', win)).toBe('c:\\ALLOWED\\x');
    expect(parsePathInput('sub\\f.txt', win)).toBe('C:\\allowed\\sub\\f.txt');
    expect(parsePathInput('\\f.txt', win)).toBe('C:\\f.txt');
    expect(parsePathInput('~\\a', win)).toBe('C:\\Users\\me\\a');
    expect(parsePathInput('file:///C:/allowed/x', win)).toBe('C:\\allowed\\x');
    expect(rejection(() => parsePathInput('a:b', win))).toContain("drive's current directory");
    expect(rejection(() => parsePathInput('file:///C:/allowed/CON', win))).toContain('"CON"');
  });
});

describe('Windows string forms', () => {
  it('detects Windows form by backslash or drive prefix, or on win32', () => {
    expect(isWindowsForm('a:b', 'linux')).toBe(false);
    expect(isWindowsForm('a\\b', 'linux')).toBe(true);
    expect(isWindowsForm('C:/x', 'linux')).toBe(true);
    expect(isWindowsForm('a:b', 'win32')).toBe(true);
  });

  it.each([
    ['\\\\?\\C:\\allowed\\..\\secret', 'long-path prefix'],
    ['//?/C:/allowed', 'long-path prefix'],
    ['\\\\.\\PhysicalDrive0', 'device'],
    ['\\??\\C:\\x', 'NT object'],
    ['\\\\localhost\\C$\\allowed\\x', 'UNC'],
    ['\\\\server\\share', 'UNC'],
    ['C:\\allowed\\.env::$DATA', 'alternate data stream'],
    ['C:\\allowed\\.env:stream', 'alternate data stream'],
    ['C:\\allowed\\.env.', 'ending in a dot or space'],
    ['C:\\allowed\\.env ', 'ending in a dot or space'],
    ['C:\\allowed\\dir.\\x', 'ending in a dot or space'],
    ['C:\\allowed\\CON', '"CON"'],
    ['C:\\allowed\\con.txt', '"CON"'],
    ['C:\\allowed\\AUX.txt', '"AUX"'],
    ['C:\\allowed\\aux .txt', '"AUX"'],
    ['C:\\allowed\\COM9', '"COM9"'],
    ['C:\\allowed\\lpt1.tar.gz', '"LPT1"'],
    ['C:\\allowed\\CONOUT$', '"CONOUT$"'],
    ['C:\\PROGRA~1', '8.3 short name'],
    ['C:\\allowed\\GIT~1\\config', '8.3 short name'],
    ['C:\\allowed\\a?b', 'does not allow'],
  ])('rejects %s', (input, reason) => {
    expect(rejection(() => checkWindowsPath(input))).toContain(reason);
  });

  it('accepts ordinary Windows paths and near-miss names', () => {
    for (const input of [
      'C:\\allowed\\x',
      'c:/allowed/..\\y',
      'sub\\console.txt',
      'C:\\COM10',
      'C:\\a\\.env',
      'C:\\a~b',
    ]) {
      expect(() => checkWindowsPath(input)).not.toThrow();
    }
  });
});

describe('sanitizeForMessage', () => {
  it('escapes control and bidi characters and caps length', () => {
    expect(sanitizeForMessage('a\u0000b\nc\td\u202ee')).toBe('a\\u0000b\\nc\\td\\u202ee');
    const long = sanitizeForMessage('😀'.repeat(300));
    expect(Array.from(long)).toHaveLength(201);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe.skipIf(process.platform === 'win32')('root URIs', () => {
  it('converts file:// URIs and rejects everything else', () => {
    expect(rootUriToPath('file:///home/me/my%20app')).toBe('/home/me/my app');
    expect(rootUriToPath('file://localhost/home/me')).toBe('/home/me');
    expect(rootUriToPath('file://other/home/me')).toBeUndefined();
    expect(rootUriToPath('http://example.com/')).toBeUndefined();
    expect(rootUriToPath('not a uri')).toBeUndefined();
    expect(rootUriToPath('file:///a%00b')).toBeUndefined();
  });

  it('round-trips a path', () => {
    const uri = pathToRootUri('/home/me/my app#1');
    expect(uri).toBe('file:///home/me/my%20app%231');
    expect(rootUriToPath(uri)).toBe('/home/me/my app#1');
  });
});
