/**
 * The listing and search tools over one small tree, in both eras: what they show as text and as
 * data, paging with cursors, links and secrets left out, and errors that name no host path.
 */
import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsApp, textOf, treeHash, world } from './harness.js';
import { ensureContentWorker, makeTree } from './walk-support.js';
import { walkTools } from './walk-tools-kit.js';

type World = Awaited<ReturnType<typeof world>>;
interface Structured<T> {
  structuredContent?: unknown;
  isError?: boolean;
  content?: unknown;
  _?: T;
}
const data = <T>(result: Structured<T>): T => result.structuredContent as T;

let w: World;
let outsideHash: string;
beforeAll(async () => {
  ensureContentWorker();
  w = await world();
  await makeTree(w.allowed, {
    'README.md': '# readme\nneedle at top\n',
    'a.ts': 'export const a = 1;\n',
    src: {
      'index.ts': 'import { a } from "../a";\nconst needle = a;\nexport default needle;\n',
      'util.ts': 'export const u = 2;\n',
      gen: { 'out.ts': 'generated needle\n' },
    },
    docs: { 'guide.md': 'line 1\nline 2\nneedle 3\nline 4\nline 5\n' },
    '.gitignore': 'docs/\n',
    '.env': 'TOKEN=needle\n',
    'evil.txt': `${'a'.repeat(40)}!\n`,
  });
  await writeFile(join(w.allowed, 'blob.bin'), Buffer.concat([Buffer.from('needle'), Buffer.alloc(64)]));
  await symlink(w.outside, join(w.allowed, 'out'));
  await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak.txt'));
  outsideHash = await treeHash(w.outside);
});
afterAll(async () => {
  expect(await treeHash(w.outside)).toBe(outsideHash);
  await w.cleanup();
});

describe.each(['legacy', 'modern'] as const)('listing and search tools, %s era', (era) => {
  let app: App;
  let paged: App;
  let s: TestSession;
  let p: TestSession;
  beforeAll(async () => {
    app = await fsApp([w.allowed], walkTools);
    paged = await fsApp([w.allowed], walkTools, { pageSize: 3 });
    s = await connect(app, { era });
    p = await connect(paged, { era });
  });
  afterAll(async () => {
    await s.close();
    await p.close();
    await app.close();
    await paged.close();
  });

  const expectCleanError = (result: Structured<unknown>, pattern: RegExp) => {
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(pattern);
    expect(textOf(result)).not.toContain(w.base);
  };

  it('list_directory: official [DIR]/[FILE] lines in name order, [LINK] for links, secrets left out', async () => {
    const r = await s.callTool('list_directory', { path: w.allowed, structured: true });
    expect(textOf(r).split('\n').slice(0, 10)).toEqual([
      '[FILE] .gitignore',
      '[FILE] README.md',
      '[FILE] a.ts',
      '[FILE] blob.bin',
      '[DIR] docs',
      '[FILE] evil.txt',
      '[LINK] leak.txt',
      '[LINK] out',
      '[DIR] src',
      '1 entry that usually holds secrets (.env, keys, credentials) was left out; the operator can allow them with --allow-sensitive.',
    ]);
    expect(data<{ entries: unknown[] }>(r).entries).toContainEqual({ name: 'out', type: 'symlink' });
  });

  it('list_directory pages with a cursor and refuses a forged one without leaking paths', async () => {
    const one = await p.callTool('list_directory', { path: 'src', structured: true });
    const first = data<{ entries: { name: string }[]; nextCursor?: string }>(one);
    expect(first.entries.map((e) => e.name)).toEqual(['gen', 'index.ts', 'util.ts']);
    expect(first.nextCursor).toBeUndefined();
    const topResult = await p.callTool('list_directory', { path: '.', structured: true });
    const top = data<{ entries: { name: string }[]; nextCursor: string }>(topResult);
    expect(top.entries).toHaveLength(3);
    const next = await p.callTool('list_directory', { path: '.', cursor: top.nextCursor, structured: true });
    expect(data<{ entries: { name: string }[] }>(next).entries.map((e) => e.name)).toEqual([
      'blob.bin',
      'docs',
      'evil.txt',
    ]);
    expect(textOf(topResult)).toContain(`cursor "${top.nextCursor}"`);
    expectCleanError(
      await p.callTool('list_directory', { path: '.', cursor: `${top.nextCursor.slice(0, -3)}abc` }),
      /Invalid or expired cursor/,
    );
    // A cursor of another directory's listing is refused too.
    expectCleanError(
      await p.callTool('list_directory', { path: 'src', cursor: top.nextCursor }),
      /Invalid or expired cursor/,
    );
  });

  it('list_directory fails in one sentence on a file, a missing path and a link out', async () => {
    expectCleanError(
      await s.callTool('list_directory', { path: 'a.ts' }),
      /"allowed\/a\.ts" is not a directory/,
    );
    expectCleanError(await s.callTool('list_directory', { path: 'nope' }), /does not exist/);
    expectCleanError(await s.callTool('list_directory', { path: 'out' }), /outside the allowed directories/);
  });

  it('list_directory_with_sizes: sizes, official summary lines, size order', async () => {
    const r = await s.callTool('list_directory_with_sizes', { path: 'src' });
    const lines = textOf(r).split('\n');
    expect(lines[0]).toBe('[DIR] gen');
    expect(lines[1]).toMatch(/^\[FILE\] index\.ts\s+\d+ B$/);
    expect(lines.slice(-3)).toEqual([
      '',
      'Total: 2 files, 1 directories',
      expect.stringMatching(/^Combined size: \d+ B$/),
    ]);
    const sized = data<{ entries: { name: string; size?: number }[]; totalBytes: number }>(
      await s.callTool('list_directory_with_sizes', { path: '.', sortBy: 'size', structured: true }),
    );
    expect(sized.entries[0]?.name).toBe('blob.bin');
    const sizes = sized.entries.flatMap((e) => (e.size === undefined ? [] : [e.size]));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(sized.totalBytes).toBe(sizes.reduce((a, b) => a + b, 0));
    const page = await p.callTool('list_directory_with_sizes', { path: '.', sortBy: 'size' });
    expect(textOf(page)).toContain('More entries follow');
  });

  it('directory_tree: compact indented text, links marked and not entered', async () => {
    const r = await s.callTool('directory_tree', { path: w.allowed, excludePatterns: ['gen'] });
    expect(textOf(r).split('\n')).toEqual([
      `${w.allowed}/`,
      '  .gitignore',
      '  README.md',
      '  a.ts',
      '  blob.bin',
      '  docs/',
      '    guide.md',
      '  evil.txt',
      '  leak.txt@',
      '  out@',
      '  src/',
      '    index.ts',
      '    util.ts',
      '',
      '1 entry that usually holds secrets (.env, keys, credentials) was left out; the operator can allow them with --allow-sensitive.',
    ]);
    expect(data(r)).toMatchObject({ root: w.allowed, entries: 12, truncated: false });
    const ignored = textOf(
      await s.callTool('directory_tree', { path: '.', respectGitignore: true, maxDepth: 1 }),
    );
    expect(ignored).not.toContain('docs');
    expect(ignored).not.toContain('index.ts');
  });

  it('directory_tree says how to narrow when it stops at maxEntries', async () => {
    const r = await s.callTool('directory_tree', { path: '.', maxEntries: 4 });
    expect(data(r)).toMatchObject({ entries: 4, truncated: true });
    expect(textOf(r)).toMatch(
      /Truncated: showing the first 4 entries because of maxEntries \(4\).*raise maxEntries.*maxDepth.*excludePatterns.*subdirectory/,
    );
  });

  it('search_files: a name glob at any depth, a path glob, a plain word, excludes', async () => {
    const names = async (args: Record<string, unknown>) =>
      data<{ matches: string[] }>(await s.callTool('search_files', { path: w.allowed, ...args })).matches;
    expect(await names({ pattern: '*.ts' })).toEqual([
      'a.ts',
      'src/gen/out.ts',
      'src/index.ts',
      'src/util.ts',
    ]);
    expect(await names({ pattern: 'src/*.ts' })).toEqual(['src/index.ts', 'src/util.ts']);
    expect(await names({ pattern: 'GUIDE' })).toEqual(['docs/guide.md']);
    expect(await names({ pattern: '*.ts', excludePatterns: ['gen'] })).toEqual([
      'a.ts',
      'src/index.ts',
      'src/util.ts',
    ]);
    expect(await names({ pattern: '*.md', respectGitignore: true })).toEqual(['README.md']);
    expect(await names({ pattern: 'secret*' })).toEqual([]);
    expect(textOf(await s.callTool('search_files', { path: 'src', pattern: 'zzz' }))).toBe(
      'No matches found',
    );
  });

  it('search_files lists paths under the directory as the caller named it, and the same matches relative to root as data', async () => {
    const r = await s.callTool('search_files', { path: 'src', pattern: '*.ts' });
    const { root, matches } = data<{ root: string; matches: string[] }>(r);
    expect(root).toBe('src');
    expect(matches).toEqual(['gen/out.ts', 'index.ts', 'util.ts']);
    expect(textOf(r).split('\n')).toEqual(['src/gen/out.ts', 'src/index.ts', 'src/util.ts']);
    // Absolute in, absolute out, as the official server answers; each line works as a path again.
    const abs = await s.callTool('search_files', { path: join(w.allowed, 'src'), pattern: '*.ts' });
    expect(textOf(abs).split('\n')).toEqual(matches.map((m) => join(w.allowed, 'src', m)));
    // A relative line is relative to the first allowed directory, as every tool reads a relative path.
    for (const line of textOf(r).split('\n')) expect(existsSync(join(w.allowed, line)), line).toBe(true);
  });

  it('search_files pages by resuming the walk, and refuses a forged or foreign cursor', async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await p.callTool('search_files', { path: '.', pattern: '*', ...(cursor ? { cursor } : {}) });
      const page = data<{ matches: string[]; nextCursor?: string }>(r);
      all.push(...page.matches);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(5);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([
      '.gitignore',
      'README.md',
      'a.ts',
      'blob.bin',
      'docs',
      'docs/guide.md',
      'evil.txt',
      'leak.txt',
      'out',
      'src',
      'src/gen',
      'src/gen/out.ts',
      'src/index.ts',
      'src/util.ts',
    ]);
    const first = data<{ nextCursor: string }>(await p.callTool('search_files', { path: '.', pattern: '*' }));
    expectCleanError(
      await p.callTool('search_files', { path: '.', pattern: '*', cursor: 'v1.e30.AAAA' }),
      /Invalid or expired cursor/,
    );
    expectCleanError(
      await p.callTool('search_files', { path: '.', pattern: '*.ts', cursor: first.nextCursor }),
      /Invalid or expired cursor/,
    );
  });

  it('search_content: hits with context, binary and secret files skipped, paged', async () => {
    const r = await s.callTool('search_content', {
      path: '.',
      query: 'NEEDLE',
      contextLines: 1,
      excludePatterns: ['evil.txt'],
    });
    const hits = data<{
      hits: { file: string; line: number; before: string[]; after: string[] }[];
      skipped: { binary: number };
    }>(r);
    // Named under the path as given ("."), so each can be passed back, and no host path shows.
    expect(hits.hits.map((h) => `${h.file}:${h.line}`)).toEqual([
      './README.md:2',
      './docs/guide.md:3',
      './src/gen/out.ts:1',
      './src/index.ts:2',
      './src/index.ts:3',
    ]);
    expect(JSON.stringify(r)).not.toContain(w.allowed);
    expect(hits.hits[1]).toMatchObject({ before: ['line 2'], after: ['line 4'] });
    expect(hits.skipped.binary).toBe(1);
    expect(textOf(r)).toContain('./docs/guide.md:3\n  2- line 2\n  3: needle 3\n  4- line 4');
    expect(textOf(r)).not.toContain('TOKEN');
    expect(textOf(r)).not.toContain('top secret');
    const literal = await s.callTool('search_content', {
      path: '.',
      query: 'needle',
      caseSensitive: true,
      include: 'src/**',
    });
    expect(data<{ hits: unknown[] }>(literal).hits).toHaveLength(3);
    const page1 = data<{ hits: { line: number }[]; nextCursor: string }>(
      await p.callTool('search_content', {
        path: '.',
        query: 'needle',
        regex: true,
        excludePatterns: ['evil.txt'],
      }),
    );
    expect(page1.hits).toHaveLength(3);
    const page2 = data<{ hits: { file: string; line: number }[]; nextCursor?: string }>(
      await p.callTool('search_content', {
        path: '.',
        query: 'needle',
        regex: true,
        excludePatterns: ['evil.txt'],
        cursor: page1.nextCursor,
      }),
    );
    expect(page2.hits.map((h) => `${h.file}:${h.line}`)).toEqual(['./src/index.ts:2', './src/index.ts:3']);
    expectCleanError(
      await s.callTool('search_content', { path: '.', query: '(', regex: true }),
      /regex is not valid/,
    );
  });

  it('search_content stops a catastrophic regex at the budget with a clear note, and the server keeps answering', async () => {
    // The budget, not the regex, ended the call: it says so, and names the file it stopped in.
    const r = await s.callTool('search_content', {
      path: '.',
      query: '(a+)+$',
      regex: true,
      timeoutMs: 1500,
    });
    expect(r.isError).toBeFalsy();
    expect(data(r)).toMatchObject({ timedOut: true });
    expect(textOf(r)).toMatch(
      /Stopped at the time budget of 1500 ms while searching ".*evil\.txt", which was not finished/,
    );
    expect(textOf(r)).toContain('cursor "');
    const after = await s.callTool('list_directory', { path: 'src' });
    expect(textOf(after)).toContain('[FILE] index.ts');
    // The cursor goes on after the runaway file.
    const rest = await s.callTool('search_content', {
      path: '.',
      query: '(a+)+$',
      regex: true,
      timeoutMs: 1500,
      cursor: data<{ nextCursor: string }>(r).nextCursor,
    });
    expect(data(rest)).toMatchObject({ timedOut: false });
  });
});
