/**
 * The official filesystem server's tools called with its own argument shapes, happy paths only:
 * the calls a prompt or an agent written for `@modelcontextprotocol/server-filesystem` makes. Each
 * step names the paths under `dir` (the allowed directory, as the caller spells it) and, for this
 * server, what must be true after it. official-calls.test.ts replays them against the official
 * server and against this one.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/** One replayed call: the official tool, its arguments, and what this server's answer must show. */
export interface OfficialCall {
  tool: string;
  args: (dir: string) => Record<string, unknown>;
  /** Checks on this server's answer and on the disk afterwards; `text` is the first text block. */
  check?: (dir: string, text: string, result: CallToolResult) => void | Promise<void>;
}

/** 1×1 PNG header bytes: enough for a file typed by its extension. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

/** The files every replay starts from. */
export async function seedOfficialWorld(dir: string): Promise<void> {
  await mkdir(join(dir, 'src', 'lib'), { recursive: true });
  await mkdir(join(dir, 'docs'));
  await mkdir(join(dir, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(dir, 'notes.txt'), 'hello\nworld\nagain\n');
  await writeFile(join(dir, 'src', 'app.ts'), 'export const answer = 41;\n');
  await writeFile(join(dir, 'src', 'lib', 'util.ts'), 'export const two = 2;\n');
  await writeFile(join(dir, 'docs', 'guide.md'), '# Guide\n');
  await writeFile(join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  await writeFile(join(dir, 'pic.png'), PNG);
  await writeFile(join(dir, 'song.mp3'), Buffer.from('ID3fake'));
  await writeFile(join(dir, 'manual.pdf'), '%PDF-1.4\n%\u00e2\u00e3\n');
}

const read = (path: string) => readFile(path, 'utf8');

/** The replay, in order: later steps use what earlier ones created. */
export const OFFICIAL_CALLS: readonly OfficialCall[] = [
  {
    tool: 'list_allowed_directories',
    args: () => ({}),
    check: (_dir, text) => expect(text).toMatch(/^Allowed directories:\n/),
  },
  // Create, overwrite, edit.
  {
    tool: 'create_directory',
    args: (dir) => ({ path: join(dir, 'made', 'deep') }),
    check: (dir, text) =>
      expect(text.startsWith(`Created directory "${join(dir, 'made', 'deep')}"`)).toBe(true),
  },
  {
    tool: 'create_directory',
    args: (dir) => ({ path: join(dir, 'made', 'deep') }),
    check: (_dir, text) => expect(text).toMatch(/already exists/),
  },
  {
    tool: 'write_file',
    args: (dir) => ({ path: join(dir, 'made', 'deep', 'new.txt'), content: 'first\n' }),
    check: async (dir) => expect(await read(join(dir, 'made', 'deep', 'new.txt'))).toBe('first\n'),
  },
  {
    tool: 'write_file',
    args: (dir) => ({ path: join(dir, 'made', 'deep', 'new.txt'), content: 'second\n' }),
    check: async (dir, text) => {
      expect(text.startsWith(`Replaced "${join(dir, 'made', 'deep', 'new.txt')}"`)).toBe(true);
      expect(text).toMatch(/\(7 bytes written\)\.$/);
      expect(await read(join(dir, 'made', 'deep', 'new.txt'))).toBe('second\n');
    },
  },
  {
    tool: 'write_file',
    args: (dir) => ({ path: join(dir, 'notes.txt'), content: 'hello\nworld\nagain\n' }),
  },
  {
    tool: 'edit_file',
    args: (dir) => ({ path: join(dir, 'notes.txt'), edits: [{ oldText: 'world', newText: 'there' }] }),
    check: async (dir, text) => {
      expect(text).toContain('+there');
      expect(await read(join(dir, 'notes.txt'))).toBe('hello\nthere\nagain\n');
    },
  },
  {
    tool: 'edit_file',
    args: (dir) => ({
      path: join(dir, 'notes.txt'),
      edits: [{ oldText: 'again', newText: 'once more' }],
      dryRun: true,
    }),
    check: async (dir, text) => {
      expect(text).toContain('+once more');
      expect(await read(join(dir, 'notes.txt'))).toBe('hello\nthere\nagain\n');
    },
  },
  {
    tool: 'edit_file',
    args: (dir) => ({
      path: join(dir, 'src', 'app.ts'),
      // Indented differently from the file: the official server matches it line by line too.
      edits: [
        { oldText: '  export const answer = 41;', newText: 'export const answer = 42;' },
        { oldText: 'answer', newText: 'result' },
      ],
      dryRun: false,
    }),
    check: async (dir) => expect(await read(join(dir, 'src', 'app.ts'))).toBe('export const result = 42;\n'),
  },
  { tool: 'edit_file', args: (dir) => ({ path: join(dir, 'docs', 'guide.md'), edits: [] }) },
  // Read.
  {
    tool: 'read_text_file',
    args: (dir) => ({ path: join(dir, 'notes.txt') }),
    check: (_dir, text) => expect(text).toBe('hello\nthere\nagain\n'),
  },
  {
    tool: 'read_text_file',
    args: (dir) => ({ path: join(dir, 'notes.txt'), head: 1 }),
    check: (_dir, text) => expect(text).toBe('hello'),
  },
  {
    tool: 'read_text_file',
    args: (dir) => ({ path: join(dir, 'notes.txt'), tail: 2 }),
    check: (_dir, text) => expect(text).toBe('there\nagain'),
  },
  {
    tool: 'read_file',
    args: (dir) => ({ path: join(dir, 'notes.txt') }),
    check: (_dir, text) => expect(text).toBe('hello\nthere\nagain\n'),
  },
  {
    tool: 'read_multiple_files',
    args: (dir) => ({ paths: [join(dir, 'notes.txt'), join(dir, 'docs', 'guide.md')] }),
    check: (dir, text) => {
      expect(text).toContain(`${join(dir, 'notes.txt')}:\nhello`);
      expect(text).toContain(`${join(dir, 'docs', 'guide.md')}:\n# Guide`);
    },
  },
  {
    tool: 'read_media_file',
    args: (dir) => ({ path: join(dir, 'pic.png') }),
    check: (_dir, _text, result) =>
      expect(result.content).toContainEqual({
        type: 'image',
        data: PNG.toString('base64'),
        mimeType: 'image/png',
      }),
  },
  {
    tool: 'read_media_file',
    args: (dir) => ({ path: join(dir, 'song.mp3') }),
    check: (_dir, _text, result) =>
      expect(result.content).toContainEqual(
        expect.objectContaining({ type: 'audio', mimeType: 'audio/mpeg' }),
      ),
  },
  {
    tool: 'read_media_file',
    args: (dir) => ({ path: join(dir, 'manual.pdf') }),
    check: (_dir, _text, result) =>
      expect(result.content).toContainEqual({
        type: 'resource',
        resource: expect.objectContaining({ mimeType: 'application/pdf', blob: expect.any(String) }),
      }),
  },
  {
    tool: 'get_file_info',
    args: (dir) => ({ path: join(dir, 'notes.txt') }),
    check: (_dir, text) => {
      expect(text).toMatch(/^size: 18$/m);
      expect(text).toMatch(/^isFile: true$/m);
      expect(text).toMatch(/^permissions: \d{3}$/m);
    },
  },
  // Move.
  {
    tool: 'move_file',
    args: (dir) => ({
      source: join(dir, 'made', 'deep', 'new.txt'),
      destination: join(dir, 'made', 'moved.txt'),
    }),
    check: async (dir) => {
      expect(await read(join(dir, 'made', 'moved.txt'))).toBe('second\n');
      expect(existsSync(join(dir, 'made', 'deep', 'new.txt'))).toBe(false);
    },
  },
  {
    tool: 'move_file',
    args: (dir) => ({ source: join(dir, 'made', 'deep'), destination: join(dir, 'made', 'renamed') }),
    check: (dir) => {
      expect(existsSync(join(dir, 'made', 'renamed'))).toBe(true);
      expect(existsSync(join(dir, 'made', 'deep'))).toBe(false);
    },
  },
  // List, tree, search.
  {
    tool: 'list_directory',
    args: (dir) => ({ path: dir }),
    check: (_dir, text) => {
      expect(text).toMatch(/^\[DIR\] src$/m);
      expect(text).toMatch(/^\[FILE\] notes\.txt$/m);
    },
  },
  {
    tool: 'list_directory_with_sizes',
    args: (dir) => ({ path: dir }),
    check: (_dir, text) => expect(text).toMatch(/^\[FILE\] notes\.txt +18 B$/m),
  },
  {
    tool: 'list_directory_with_sizes',
    args: (dir) => ({ path: dir, sortBy: 'size' }),
    check: (_dir, text) => expect(text).toMatch(/^Total: \d+ files, \d+ directories$/m),
  },
  {
    tool: 'directory_tree',
    args: (dir) => ({ path: join(dir, 'src') }),
    check: (_dir, text) => expect(text).toMatch(/^ {4}util\.ts$/m),
  },
  {
    tool: 'directory_tree',
    args: (dir) => ({ path: dir, excludePatterns: ['node_modules', '*.png'] }),
    check: (_dir, text) => {
      expect(text).toContain('guide.md');
      expect(text).not.toContain('node_modules');
      expect(text).not.toContain('pic.png');
    },
  },
  {
    tool: 'search_files',
    args: (dir) => ({ path: dir, pattern: '**/*.ts' }),
    check: (dir, text) => expect(text.split('\n')).toContain(join(dir, 'src', 'lib', 'util.ts')),
  },
  {
    tool: 'search_files',
    args: (dir) => ({ path: dir, pattern: '*.md', excludePatterns: ['node_modules'] }),
    check: (dir, text) => expect(text.split('\n')).toContain(join(dir, 'docs', 'guide.md')),
  },
  {
    tool: 'search_files',
    args: (dir) => ({ path: join(dir, 'src'), pattern: 'nothing-matches-*' }),
    check: (_dir, text) => expect(text).toBe('No matches found'),
  },
];

/** The official server's bin, found up the node_modules chain from here (a devDependency of this package). */
export function officialBin(): string {
  const tail = join('node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const bin = join(dir, tail);
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) {
      throw new Error(
        '@modelcontextprotocol/server-filesystem is a devDependency of this package; run npm install.',
      );
    }
  }
}
