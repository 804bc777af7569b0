/**
 * The review attack corpus, smaller findings: a confirmation names the real file it would change
 * (through a link, with .., for a copy and a move, and an overwrite under --confirm-overwrite) and
 * escapes a bidi override; a rewrite keeps the
 * permission bits but drops setuid and setgid; apply_patch reads "~" and "file:" in relative names
 * literally.
 */
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import type { Era, World } from './attacks-review-kit.js';
import { textOf, treeHash, world } from './harness.js';

describe.each(['legacy', 'modern'] as const)('finding: what a confirmation names (%s era)', (era: Era) => {
  let w: World;
  let app: App;
  beforeAll(async () => {
    w = await world();
    await mkdir(join(w.allowed, 'src'));
    await mkdir(join(w.allowed, 'tmp'));
    await writeFile(join(w.allowed, 'src', 'main.ts'), 'main\n');
    await symlink(join(w.allowed, 'src', 'main.ts'), join(w.allowed, 'notes.txt'));
    await writeFile(join(w.allowed, 'a\u202Etxt.exe'), 'x\n');
    // write_file asks only when the operator turns --confirm-overwrite on; its questions are checked here.
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]), confirmOverwrite: true });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  const ask = async (tool: string, args: Record<string, unknown>) => {
    const asked: string[] = [];
    const session = await connect(app, {
      era,
      elicitation: (params) => {
        asked.push(params.message);
        return { action: 'decline' };
      },
    });
    try {
      const before = await treeHash(w.allowed);
      const result = await session.callTool(tool, args);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await treeHash(w.allowed)).toBe(before);
      return asked;
    } finally {
      await session.close();
    }
  };

  it('names the real file when the path goes through a link', async () => {
    const asked = await ask('write_file', { path: 'notes.txt', content: 'pwned' });
    expect(asked[0]).toContain('"notes.txt"');
    expect(asked[0]).toContain('allowed/src/main.ts');
  });

  it('names the real directory when the path uses ..', async () => {
    const asked = await ask('delete_file', { path: 'tmp/../src', recursive: true });
    expect(asked[0]).toContain('allowed/src');
  });

  it('names the real files of a copy and a move', async () => {
    await writeFile(join(w.allowed, 'other.txt'), 'other\n');
    const copy = await ask('copy_file', { source: 'other.txt', destination: 'notes.txt', overwrite: true });
    expect(copy[0]).toContain('allowed/src/main.ts');
    const move = await ask('move_file', { source: 'other.txt', destination: 'notes.txt', overwrite: true });
    expect(move[0]).toContain('allowed/src/main.ts');
  });

  it('escapes a bidi override so the question reads as what it is', async () => {
    const asked = await ask('write_file', { path: 'a\u202Etxt.exe', content: 'pwned' });
    expect(asked[0]).not.toContain('\u202E');
    expect(asked[0]).toContain('\\u202e');
  });
});

describe('finding: setuid and setgid do not survive a rewrite', () => {
  let w: World;
  let app: App;
  let session: TestSession;
  beforeAll(async () => {
    w = await world();
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
    session = await connect(app, { era: 'legacy' });
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it.each([
    ['write_file', (p: string) => ({ path: p, content: '#!/bin/sh\nid\n', confirm: true })],
    ['edit_file', (p: string) => ({ path: p, edits: [{ oldText: 'true', newText: 'id' }] })],
    ['copy_file', (p: string) => ({ source: 'plain.sh', destination: p, overwrite: true, confirm: true })],
    [
      'apply_patch',
      (p: string) => ({ patch: `--- a/${p}\n+++ b/${p}\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-true\n+id\n` }),
    ],
  ])('%s keeps the permission bits and drops setuid/setgid', async (tool, args) => {
    const name = `${tool}.sh`;
    const path = join(w.allowed, name);
    await writeFile(path, '#!/bin/sh\ntrue\n');
    await writeFile(join(w.allowed, 'plain.sh'), '#!/bin/sh\nid\n');
    await chmod(path, 0o6755);
    expect((await stat(path)).mode & 0o7777).toBe(0o6755);
    const result = await session.callTool(tool, args(name));
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((await stat(path)).mode & 0o7777).toBe(0o755);
  });
});

describe('finding: apply_patch reads "~" and "file:" in relative names literally', () => {
  it('creates the file the patch names, not one in the home directory', async () => {
    const w = await world();
    const home = join(w.base, 'home');
    await mkdir(home);
    await mkdir(join(w.allowed, '~'));
    const app = createFilesystemApp({ roots: await RootSet.create([w.allowed, home], { home }) });
    const session = await connect(app, { era: 'legacy' });
    try {
      const before = await treeHash(home);
      const patch = '--- /dev/null\n+++ b/~/x.txt\n@@ -0,0 +1 @@\n+hi\n';
      const result = await session.callTool('apply_patch', { patch });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await readFile(join(w.allowed, '~', 'x.txt'), 'utf8')).toBe('hi\n');
      expect(await treeHash(home)).toBe(before);
    } finally {
      await session.close();
      await app.close();
      await w.cleanup();
    }
  });
});
