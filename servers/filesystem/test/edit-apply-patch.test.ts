import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { type ConnectOptions, connect, type TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitChanges } from '../src/fs/patch-write.js';
import { readTextSnapshot } from '../src/fs/text-snapshot.js';
import { applyPatch } from '../src/tools/apply-patch.js';
import { fsApp, textOf, treeHash, world } from './harness.js';

type World = Awaited<ReturnType<typeof world>>;

const A = 'one\ntwo\nthree\n';
const B = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n';

const SINGLE = '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';

function multi(secondHunkContext = 'epsilon'): string {
  return [
    'diff --git a/a.txt b/a.txt',
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -1,3 +1,3 @@',
    ' one',
    '-two',
    '+TWO',
    ' three',
    'diff --git a/src/b.txt b/src/b.txt',
    '--- a/src/b.txt',
    '+++ b/src/b.txt',
    '@@ -1,2 +1,2 @@',
    '-alpha',
    '+ALPHA',
    ' beta',
    '@@ -5,2 +5,2 @@ tail',
    ` ${secondHunkContext}`,
    '-zeta',
    '+ZETA',
    '',
  ].join('\n');
}

/** A section that changes the secret, under the file name `name` exactly as the header has it. */
function modify(name: string): string {
  return `--- ${name}\n+++ ${name}\n@@ -1 +1 @@\n-top secret\n+pwned\n`;
}

describe.each(['legacy', 'modern'] as const)('apply_patch, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession | undefined;
  const open = async (extra: Partial<ConnectOptions> = {}) => {
    session = await connect(app, { era, ...extra });
    return session;
  };

  beforeEach(async () => {
    w = await world();
    await mkdir(join(w.allowed, 'src'));
    await writeFile(join(w.allowed, 'a.txt'), A);
    await writeFile(join(w.allowed, 'src', 'b.txt'), B);
    app = await fsApp([w.allowed], [applyPatch]);
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await app.close();
    await w.cleanup();
  });

  it('applies a single-file patch', async () => {
    const s = await open();
    const r = await s.callTool('apply_patch', { patch: SINGLE });
    expect(r.isError).toBeFalsy();
    expect(await readFile(join(w.allowed, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(r.structuredContent).toEqual({
      files: [{ path: 'allowed/a.txt', action: 'modified', hunks: 1 }],
      dryRun: false,
    });
  });

  it('applies a multi-file patch, relative to cwd when given', async () => {
    const s = await open();
    const r = await s.callTool('apply_patch', { patch: multi() });
    expect(r.isError).toBeFalsy();
    expect(await readFile(join(w.allowed, 'src', 'b.txt'), 'utf8')).toBe(
      B.replace('alpha', 'ALPHA').replace('zeta', 'ZETA'),
    );
    expect(r.structuredContent).toMatchObject({
      files: [
        { path: 'allowed/a.txt', hunks: 1 },
        { path: 'allowed/src/b.txt', hunks: 2 },
      ],
    });
    const inSrc = await s.callTool('apply_patch', {
      patch: '--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-ALPHA\n+Alpha\n',
      cwd: 'src',
    });
    expect(inSrc.isError).toBeFalsy();
    expect(await readFile(join(w.allowed, 'src', 'b.txt'), 'utf8')).toMatch(/^Alpha\n/);
  });

  it('changes no file at all when the second hunk of the second file fails', async () => {
    const s = await open();
    const before = await treeHash(w.allowed);
    const r = await s.callTool('apply_patch', { patch: multi('not epsilon') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('Hunk 2 of 2 for "src/b.txt" (@@ -5,2 +5,2 @@ tail) does not apply');
    expect(textOf(r)).not.toContain(w.base);
    expect(await treeHash(w.allowed)).toBe(before);
  });

  it.each([
    '../outside/secret.txt',
    'a/../outside/secret.txt',
    '/etc/passwd',
    'a/../../outside/x',
    'src/../../allowed_evil/x.txt',
  ])('refuses the patch path %s and leaves outside (and inside) unchanged', async (name) => {
    const s = await open();
    const outside = await treeHash(w.outside);
    const inside = await treeHash(w.allowed);
    // A valid first section proves refusal is all or nothing.
    const r = await s.callTool('apply_patch', { patch: SINGLE + modify(name) });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/Access denied|outside/);
    expect(textOf(r)).not.toContain(w.base);
    expect(await treeHash(w.outside)).toBe(outside);
    expect(await treeHash(w.allowed)).toBe(inside);
  });

  it('refuses a patch path that leads outside through a symlink', async () => {
    await symlink(w.outside, join(w.allowed, 'escape'));
    const s = await open();
    const outside = await treeHash(w.outside);
    const r = await s.callTool('apply_patch', { patch: modify('b/escape/secret.txt') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('symbolic link');
    expect(textOf(r)).not.toContain(w.base);
    expect(await treeHash(w.outside)).toBe(outside);
  });

  it('creates a file, and refuses one whose folder does not exist', async () => {
    const s = await open();
    const create = (name: string) => `--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,2 @@\n+hello\n+world\n`;
    const r = await s.callTool('apply_patch', { patch: create('src/new.txt') });
    expect(r.isError).toBeFalsy();
    expect(await readFile(join(w.allowed, 'src', 'new.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(r.structuredContent).toMatchObject({
      files: [{ path: 'allowed/src/new.txt', action: 'created' }],
    });
    const before = await treeHash(w.allowed);
    const missing = await s.callTool('apply_patch', { patch: SINGLE + create('nope/new.txt') });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('folder does not exist');
    expect(await treeHash(w.allowed)).toBe(before);
  });

  it('deletes a file once the user confirms, and keeps it when the user declines', async () => {
    let answer: 'accept' | 'decline' = 'decline';
    const asked: string[] = [];
    const s = await open({
      elicitation: (params) => {
        asked.push(params.message);
        return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      },
    });
    const remove = '--- a/a.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n';
    const before = await treeHash(w.allowed);
    const declined = await s.callTool('apply_patch', { patch: remove, confirm: true });
    expect(declined.isError).toBeFalsy();
    expect(textOf(declined)).toContain('Nothing was changed');
    expect(await treeHash(w.allowed)).toBe(before);
    answer = 'accept';
    const accepted = await s.callTool('apply_patch', { patch: remove });
    expect(accepted.isError).toBeFalsy();
    expect(accepted.structuredContent).toMatchObject({
      files: [{ path: 'allowed/a.txt', action: 'deleted' }],
    });
    await expect(stat(join(w.allowed, 'a.txt'))).rejects.toThrow();
    expect(asked).toEqual([
      'The patch deletes "allowed/a.txt". Apply it?',
      'The patch deletes "allowed/a.txt". Apply it?',
    ]);
  });

  it('needs confirm: true to delete when the client cannot ask', async () => {
    const s = await open();
    const remove = '--- a/a.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n';
    const refused = await s.callTool('apply_patch', { patch: remove });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('"confirm": true');
    expect(await readFile(join(w.allowed, 'a.txt'), 'utf8')).toBe(A);
    const done = await s.callTool('apply_patch', { patch: remove, confirm: true });
    expect(done.isError).toBeFalsy();
    await expect(stat(join(w.allowed, 'a.txt'))).rejects.toThrow();
  });

  it('checks everything with dryRun and writes nothing, deletions included', async () => {
    const s = await open();
    const before = await treeHash(w.allowed);
    const patch = `${multi()}--- a/a.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-TWO\n-three\n`;
    const r = await s.callTool('apply_patch', { patch, dryRun: true });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('Dry run');
    expect(r.structuredContent).toEqual({
      files: [
        { path: 'allowed/a.txt', action: 'deleted', hunks: 2 },
        { path: 'allowed/src/b.txt', action: 'modified', hunks: 2 },
      ],
      dryRun: true,
    });
    expect(await treeHash(w.allowed)).toBe(before);
  });
});

describe('apply_patch: a write that fails midway', () => {
  it('says which files were already written', async () => {
    const w = await world();
    try {
      const a = join(w.allowed, 'a.txt');
      await writeFile(a, 'old\n');
      const snap = await readTextSnapshot(a, 'allowed/a.txt');
      await mkdir(join(w.allowed, 'gone'));
      const lost = join(w.allowed, 'gone', 'new.txt');
      // The folder vanishes after the patch was checked: the second write cannot happen.
      await rm(join(w.allowed, 'gone'), { recursive: true });
      const error = await commitChanges([
        { real: a, display: 'allowed/a.txt', action: 'modified', text: 'new\n', digest: snap.digest },
        { real: lost, display: 'allowed/gone/new.txt', action: 'created', text: 'x\n', digest: undefined },
      ]).catch((e: unknown) => e as Error);
      expect(error?.message).toContain('Writing "allowed/gone/new.txt" failed (error ENOENT)');
      expect(error?.message).toContain('these files were already changed: "allowed/a.txt"');
      expect(error?.message).not.toContain(w.base);
      expect(await readFile(a, 'utf8')).toBe('new\n');
    } finally {
      await w.cleanup();
    }
  });
});
