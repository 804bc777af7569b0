import { chmod, link, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertUnchanged, readTextSnapshot } from '../src/fs/text-snapshot.js';
import { editFile } from '../src/tools/edit-file.js';
import { fsApp, textOf, treeHash, world } from './harness.js';

type World = Awaited<ReturnType<typeof world>>;

describe.each(['legacy', 'modern'] as const)('edit_file, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession;
  const file = () => join(w.allowed, 'code.ts');

  beforeEach(async () => {
    w = await world();
    await writeFile(file(), 'export function f() {\n  return 1;\n}\n');
    app = await fsApp([w.allowed], [editFile]);
    session = await connect(app, { era });
  });
  afterEach(async () => {
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it('previews with dryRun: a diff, and the file untouched', async () => {
    const before = await treeHash(w.allowed);
    const r = await session.callTool('edit_file', {
      path: 'code.ts',
      edits: [{ oldText: 'return 1;', newText: 'return 2;' }],
      dryRun: true,
    });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(
      /^```diff\n--- allowed\/code\.ts\toriginal\n\+\+\+ allowed\/code\.ts\tmodified\n/,
    );
    expect(textOf(r)).toContain('-  return 1;\n+  return 2;');
    expect(r.structuredContent).toMatchObject({ dryRun: true, changed: true, path: 'allowed/code.ts' });
    expect(await treeHash(w.allowed)).toBe(before);
  });

  it('edits in place, keeps the mode, and reports how each edit matched', async () => {
    await chmod(file(), 0o600);
    const r = await session.callTool('edit_file', {
      path: join(w.allowed, 'code.ts'),
      edits: [
        { oldText: 'return 1;', newText: 'return 2;' },
        { oldText: 'export function f() {\nreturn 2;\n}', newText: 'export function f() {\nreturn 3;\n}' },
      ],
    });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('edit 1 matched exactly at line 2');
    expect(textOf(r)).toContain('edit 2 matched with whitespace ignored and was re-indented');
    expect(textOf(r)).toContain('+  return 3;');
    expect(await readFile(file(), 'utf8')).toBe('export function f() {\n  return 3;\n}\n');
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(r.structuredContent).toMatchObject({
      dryRun: false,
      changed: true,
      applied: [
        { index: 0, mode: 'exact', count: 1, line: 2 },
        { index: 1, mode: 'whitespace', count: 1, line: 1, endLine: 3 },
      ],
    });
  });

  it('refuses an ambiguous edit and writes nothing', async () => {
    await writeFile(file(), 'a = 1;\nb = 1;\n');
    const before = await treeHash(w.allowed);
    const r = await session.callTool('edit_file', {
      path: 'code.ts',
      edits: [{ oldText: '1;', newText: '2;' }],
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('lines 1, 2');
    expect(textOf(r)).not.toContain(w.base);
    expect(await treeHash(w.allowed)).toBe(before);
  });

  it('refuses to edit through a symlink that leads outside, and leaves outside alone', async () => {
    await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'link.txt'));
    const before = await treeHash(w.outside);
    const r = await session.callTool('edit_file', {
      path: 'link.txt',
      edits: [{ oldText: 'top secret', newText: 'pwned' }],
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('Access denied');
    expect(textOf(r)).not.toContain(w.base);
    expect(await treeHash(w.outside)).toBe(before);
  });

  it('breaks a hard link to a file outside instead of writing through it', async () => {
    await link(join(w.outside, 'secret.txt'), join(w.allowed, 'hard.txt'));
    const before = await treeHash(w.outside);
    const r = await session.callTool('edit_file', {
      path: 'hard.txt',
      edits: [{ oldText: 'top secret', newText: 'edited' }],
    });
    expect(r.isError).toBeFalsy();
    expect(await readFile(join(w.allowed, 'hard.txt'), 'utf8')).toBe('edited\n');
    expect(await readFile(join(w.outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(await treeHash(w.outside)).toBe(before);
    expect((await stat(join(w.outside, 'secret.txt'))).nlink).toBe(1);
  });

  it('refuses a path outside, a missing file and a file that is not UTF-8, without leaking the base', async () => {
    await writeFile(join(w.allowed, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    for (const path of ['../outside/secret.txt', '/etc/passwd', 'missing.txt', 'latin1.txt']) {
      const r = await session.callTool('edit_file', { path, edits: [{ oldText: 'x', newText: 'y' }] });
      expect(r.isError, path).toBe(true);
      expect(textOf(r), path).not.toContain(w.base);
    }
    expect(await readFile(join(w.allowed, 'latin1.txt'))).toEqual(
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    );
  });

  it('keeps CRLF line endings on disk', async () => {
    await writeFile(file(), 'one\r\ntwo\r\n');
    const r = await session.callTool('edit_file', {
      path: 'code.ts',
      edits: [{ oldText: 'two', newText: '2\n3' }],
    });
    expect(r.isError).toBeFalsy();
    expect(await readFile(file(), 'utf8')).toBe('one\r\n2\r\n3\r\n');
  });
});

describe.each(['legacy', 'modern'] as const)('edit_file output bound, %s era', (era) => {
  it('cuts a huge diff between lines and says so, yet writes the whole edit', async () => {
    const w = await world();
    const app = await fsApp([w.allowed], [editFile], {
      outputLimitBytes: 4096,
    });
    const session = await connect(app, { era });
    try {
      const body = Array.from({ length: 300 }, (_, i) => `row ${i}`).join('\n');
      await writeFile(join(w.allowed, 'rows.txt'), body);
      const r = await session.callTool('edit_file', {
        path: 'rows.txt',
        edits: [{ oldText: 'row', newText: 'ROW', replaceAll: true }],
      });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toContain('[truncated');
      expect(textOf(r)).toContain('read the file to review the result');
      expect(Buffer.byteLength(textOf(r))).toBeLessThan(4096);
      expect(r.structuredContent).toMatchObject({ diffTruncated: true, applied: [{ count: 300 }] });
      expect(await readFile(join(w.allowed, 'rows.txt'), 'utf8')).toBe(body.replaceAll('row', 'ROW'));
    } finally {
      await session.close();
      await app.close();
      await w.cleanup();
    }
  });
});

describe('edit_file: a file changed while the edit was worked out', () => {
  it('is noticed before writing', async () => {
    const w = await world();
    try {
      const path = join(w.allowed, 'f.txt');
      await writeFile(path, 'first\n');
      const snap = await readTextSnapshot(path, 'allowed/f.txt');
      await assertUnchanged(path, 'allowed/f.txt', snap.digest);
      await writeFile(path, 'someone else\n');
      const error = await assertUnchanged(path, 'allowed/f.txt', snap.digest).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toContain('changed while editing; read it again');
    } finally {
      await w.cleanup();
    }
  });
});
