/**
 * Rules of the workspace's own files, checked so they hold as it grows: every file a reader opens
 * stays short enough to take in at once, and source files are named in kebab-case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/workspaces.js';

const MAX_LINES = 350;

/** What is built, fetched or generated rather than written: not read. */
const SKIP = new Set([
  'node_modules',
  'dist',
  '.cache',
  '.examples',
  '.reports',
  '.turbo',
  '.bench-out',
  'generated',
]);

/** The TypeScript and JavaScript files people write, as paths from the root. */
function code(dir = '', found: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.git')) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) code(path, found);
    else if (/\.(ts|mjs|js)$/.test(entry.name)) found.push(path);
  }
  return found;
}

describe('the workspace', () => {
  const files = ['packages', 'servers', 'test', 'scripts'].flatMap((top) => code(top));

  it('has code files to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it(`has no code file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('names source files in kebab-case', () => {
    const bad = files.filter((path) => /(^|\/)src\//.test(path) && /[A-Z_]/.test(basename(path)));
    expect(bad).toEqual([]);
  });
});
