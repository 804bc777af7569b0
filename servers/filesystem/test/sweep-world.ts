/**
 * The filesystem sweep's world and batteries: a root holding every kind of entry a path can meet
 * (a file, a directory, an empty one, a link loop, a dangling link, a link out, a FIFO, a secret,
 * a binary file), the odd paths, globs, patches and cursors the sweep sends, and each tool's base
 * arguments.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ODD_STRINGS, type OddInputBattery, type OddInputSchema, oddCursors } from '@mcpkit/core/testing';

/** The temporary directories of one sweep (see harness.ts `world`). */
export interface SweepWorld {
  base: string;
  allowed: string;
  outside: string;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Fills the root with the sweep's entries, after emptying it: every case of a writer starts here. */
export async function populate(w: SweepWorld): Promise<void> {
  const at = (...parts: string[]) => join(w.allowed, ...parts);
  // The FIFO stays when it is still one: making it takes a process.
  const fifo = await lstat(at('fifo')).then(
    (s) => s.isFIFO(),
    () => false,
  );
  for (const name of await readdir(w.allowed)) {
    if (name !== 'fifo' || !fifo) await rm(at(name), { recursive: true, force: true });
  }
  await writeFile(at('a.txt'), 'hello\nworld\nhello again\n');
  await mkdir(at('dir', 'sub'), { recursive: true });
  await writeFile(at('dir', 'b.txt'), 'hello from b\n');
  await writeFile(at('dir', 'sub', 'c.md'), '# c\n');
  await mkdir(at('empty'));
  await mkdir(at('many'));
  for (const n of [1, 2, 3, 4, 5]) await writeFile(at('many', `f${n}.txt`), `file ${n} hello\n`);
  await writeFile(at('bin.dat'), Buffer.from([0, 1, 2, 255, 0, 10]));
  await writeFile(at('p.png'), PNG);
  await writeFile(at('.env'), 'TOKEN=hunter2\n');
  await writeFile(at('new\nline.txt'), 'odd name\n');
  await symlink('loop', at('loop'));
  await symlink('nowhere', at('dangling'));
  await symlink(w.outside, at('out'));
  if (!fifo) execFileSync('mkfifo', [at('fifo')]);
}

/** Paths a confused caller or an attacker may send, relative and absolute. */
export function oddPaths(w: SweepWorld): string[] {
  return [
    'a.txt',
    'missing.txt',
    'missing/deeper.txt',
    'a.txt/x',
    'a.txt/',
    'dir',
    'dir/',
    'empty',
    'loop',
    'loop/x',
    'dangling',
    'dangling/x',
    'out',
    'out/secret.txt',
    'fifo',
    'bin.dat',
    'p.png',
    '.env',
    '.',
    '/',
    '~',
    '~/x',
    'n'.repeat(300),
    `${'d/'.repeat(2100)}x`,
    `dir/${'n'.repeat(300)}/x`,
    'C:\\Windows\\x',
    '\\\\srv\\share\\x',
    'file:///etc/passwd',
    'e\u0301.txt',
    join(w.allowed, 'missing.txt'),
    join(w.allowed, 'a.txt', 'x'),
    join(w.allowed, 'fifo'),
    join(w.outside, 'secret.txt'),
    w.base,
    '/proc/self/environ',
    ...ODD_STRINGS,
  ];
}

/** Globs that are wrong, huge or explosive. */
export const ODD_GLOBS: readonly string[] = [
  '*.txt',
  '**/**/**/**',
  '{a,{b,{c,{d}}}}',
  '[z-a]',
  '[[:alpha:]',
  '!',
  '!!*',
  '*'.repeat(1000),
  '**/'.repeat(300),
  '{'.repeat(500),
  '../**',
  '/**',
  ...ODD_STRINGS,
];

/** Queries that are bad regular expressions (or catastrophic ones) when regex is on. */
export const ODD_REGEXES: readonly string[] = [
  '(',
  '(a+)+$',
  '[z-a]',
  '\\',
  '(?<',
  '*',
  'a{99999}',
  '\\k<x>',
];

/** Unified diffs that are wrong in every way a patch can be. */
export function oddPatches(w: SweepWorld): string[] {
  const edit = (path: string, old = 'hello', nu = 'bye') =>
    `--- a/${path}\n+++ b/${path}\n@@ -1,1 +1,1 @@\n-${old}\n+${nu}\n`;
  return [
    edit('a.txt'),
    edit('missing.txt'),
    edit('a.txt/x'),
    edit('dir'),
    edit('fifo'),
    edit('loop'),
    edit('dangling'),
    edit('out/secret.txt', 'top secret'),
    edit('../outside/secret.txt', 'top secret'),
    edit(join(w.outside, 'secret.txt'), 'top secret'),
    edit('a.txt', 'not there'),
    edit('bin.dat'),
    edit('n'.repeat(300)),
    '--- /dev/null\n+++ b/missing/new.txt\n@@ -0,0 +1,1 @@\n+x\n',
    '--- /dev/null\n+++ b/a.txt/new.txt\n@@ -0,0 +1,1 @@\n+x\n',
    '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+x\n',
    '--- a/dir\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-hello\n',
    '--- a/a.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-hello\n-world\n-hello again\n',
    '--- /dev/null\n+++ /dev/null\n@@ -0,0 +0,0 @@\n',
    '--- a/a.txt\n+++ b/a.txt\n@@ -999,1 +999,1 @@\n-hello\n+bye\n',
    '--- a/a.txt\n+++ b/a.txt\n@@ -x,y +z @@\n-hello\n+bye\n',
    '--- a/a.txt\n+++ b/a.txt\n@@ -1,5 +1,5 @@\n-hello\n+bye\n',
    'diff --git a/a.txt b/moved.txt\nsimilarity index 100%\nrename from a.txt\nrename to moved.txt\n',
    'diff --git a/p.png b/p.png\nGIT binary patch\nliteral 0\nHcmV?d00001\n',
    `${edit('a.txt')}${edit('a.txt')}`,
    '--- a/a.txt\n',
    '+++ b/a.txt\n@@ -1 +1 @@\n-hello\n+bye\n',
    ...ODD_STRINGS,
  ];
}

/** Core's odd cursors, and a NUL and each foreign cursor reversed besides. */
function fsCursors(foreign: readonly string[]): string[] {
  return [...oddCursors(foreign), '%00', ...foreign.map((c) => c.split('').reverse().join(''))];
}

/** The sweep's battery for filesystem tools: each argument by its name. */
export function fsBattery(w: SweepWorld, cursors: readonly string[]): OddInputBattery {
  const paths = oddPaths(w);
  return (name: string, schema: OddInputSchema) => {
    if (schema.type === 'array' && name === 'paths')
      return [[], ...paths.map((p) => [p]), paths.slice(0, 10)];
    if (schema.type !== 'string') return undefined;
    if (['path', 'source', 'destination', 'cwd'].includes(name)) return paths;
    if (name === 'cursor') return fsCursors(cursors);
    if (['pattern', 'include', 'excludePatterns'].includes(name)) return [...ODD_GLOBS];
    if (name === 'query') return [...ODD_REGEXES, ...ODD_STRINGS];
    if (name === 'patch') return oddPatches(w);
    return undefined;
  };
}

/** Each tool's arguments when nothing is odd: the case every varied argument starts from. */
export function fsBase(w: SweepWorld): Record<string, Record<string, unknown>> {
  return {
    read_text_file: { path: 'a.txt' },
    read_file: { path: 'a.txt' },
    read_media_file: { path: 'p.png' },
    read_multiple_files: { paths: ['a.txt'] },
    get_file_info: { path: 'a.txt' },
    list_allowed_directories: {},
    list_directory: { path: 'many' },
    list_directory_with_sizes: { path: 'many' },
    directory_tree: { path: 'dir' },
    search_files: { path: 'many', pattern: '*.txt' },
    search_content: { path: 'many', query: 'hello' },
    summarize_directory: { path: 'dir' },
    write_file: { path: 'new.txt', content: 'x' },
    edit_file: { path: 'a.txt', edits: [{ oldText: 'world', newText: 'earth' }] },
    apply_patch: { patch: oddPatches(w)[0] },
    create_directory: { path: 'newdir' },
    copy_file: { source: 'a.txt', destination: 'copy.txt' },
    move_file: { source: 'a.txt', destination: 'moved.txt' },
    delete_file: { path: 'a.txt' },
  };
}

/** Wrong-but-valid combinations the one-argument-at-a-time battery does not make. */
export function fsExtras(): Record<string, Record<string, unknown>[]> {
  return {
    read_text_file: [
      { path: 'a.txt', head: 2, tail: 2 },
      { path: 'a.txt', offset: 999, limit: 5 },
      { path: 'a.txt', head: 1, offset: 2 },
      { path: 'bin.dat', offset: 1 },
      { path: 'dir', tail: 1 },
    ],
    search_content: [
      ...ODD_REGEXES.map((query) => ({ path: 'many', query, regex: true })),
      { path: 'a.txt', query: 'hello', contextLines: 10 },
      { path: 'many', query: 'hello', include: '[', regex: true },
    ],
    edit_file: [
      { path: 'a.txt', edits: [{ oldText: 'hello', newText: 'x' }] },
      { path: 'a.txt', edits: [{ oldText: 'world', newText: 'world' }] },
      {
        path: 'a.txt',
        edits: [
          { oldText: 'world', newText: 'x' },
          { oldText: 'world', newText: 'y' },
        ],
      },
      { path: 'a.txt', edits: [] },
      { path: 'bin.dat', edits: [{ oldText: '\u0000', newText: 'x' }] },
      { path: 'fifo', edits: [{ oldText: 'a', newText: 'b' }], dryRun: true },
    ],
    copy_file: [
      { source: 'dir', destination: 'dir2' },
      { source: 'a.txt', destination: 'dir' },
      { source: 'a.txt', destination: 'a.txt' },
      { source: 'a.txt', destination: 'dir/b.txt', overwrite: true },
      { source: 'a.txt', destination: 'empty', overwrite: true },
      { source: 'fifo', destination: 'f2' },
    ],
    move_file: [
      { source: 'dir', destination: 'dir/sub/inside' },
      { source: 'a.txt', destination: 'a.txt' },
      { source: 'a.txt', destination: 'dir', overwrite: true },
      { source: 'dir', destination: 'a.txt', overwrite: true },
      { source: 'dir', destination: 'empty', overwrite: true },
      { source: '.', destination: 'root-moved' },
    ],
    delete_file: [
      { path: 'dir', recursive: true },
      { path: 'dir' },
      { path: '.', recursive: true },
      { path: 'empty', recursive: false },
    ],
    create_directory: [{ path: 'a.txt' }, { path: 'a.txt/sub' }, { path: 'fifo/x' }],
    write_file: [
      { path: 'dir', content: 'x' },
      { path: 'fifo', content: 'x' },
      { path: 'loop', content: 'x' },
      { path: 'dangling', content: 'x' },
    ],
  };
}
