/**
 * The scanners the tarball checks rely on, fed known-bad input: a scanner that finds nothing
 * would make every tarball look clean.
 */
import { describe, expect, it } from 'vitest';
import { exportedSubpaths, exportTargets } from '../src/exports.js';
import { forbiddenReasons } from '../src/forbidden.js';
import { isRelative, packageOf, specifiersIn, subpathOf } from '../src/imports.js';

describe('specifiersIn', () => {
  it('finds static, multi-line, re-export, side-effect, dynamic and require forms', () => {
    const code = [
      "import { a } from 'one';",
      'import {',
      '  b,',
      '  c,',
      "} from '@scope/two/sub';",
      'import * as d from "three";',
      "export { e } from './four.js';",
      "export * from 'five';",
      "import 'six';",
      "const g = await import('seven');",
      "const h = require('eight');",
    ].join('\n');
    expect(specifiersIn(code)).toEqual(
      expect.arrayContaining([
        'one',
        '@scope/two/sub',
        'three',
        './four.js',
        'five',
        'six',
        'seven',
        'eight',
      ]),
    );
    expect(specifiersIn(code)).toHaveLength(8);
  });

  it('skips JSDoc examples and strings that merely mention imports', () => {
    const code = [
      '/**',
      " * import { x } from 'from-a-comment';",
      ' */',
      'const text = \'import y from "from-a-string"\';',
      'export const z = 1;',
    ].join('\n');
    expect(specifiersIn(code)).toEqual([]);
  });
});

describe('package names', () => {
  it.each([
    ['zod', 'zod', '.'],
    ['zod/v4', 'zod', './v4'],
    ['@mcpkit/core', '@mcpkit/core', '.'],
    ['@mcpkit/core/roots', '@mcpkit/core', './roots'],
    ['@modelcontextprotocol/server/stdio', '@modelcontextprotocol/server', './stdio'],
  ])('%s is package %s, subpath %s', (specifier, name, subpath) => {
    expect(packageOf(specifier)).toBe(name);
    expect(subpathOf(specifier)).toBe(subpath);
    expect(isRelative(specifier)).toBe(false);
  });

  it('treats ./ ../ and / as files', () => {
    for (const s of ['./a.js', '../b.js', '/abs.js']) expect(isRelative(s)).toBe(true);
  });
});

describe('exportTargets', () => {
  it('flattens nested conditions per subpath', () => {
    const exports = {
      '.': { types: './dist/index.d.ts', import: { default: './dist/index.js' } },
      './package.json': './package.json',
    };
    expect(exportTargets(exports)).toEqual([
      { subpath: '.', condition: 'types', file: './dist/index.d.ts' },
      { subpath: '.', condition: 'import/default', file: './dist/index.js' },
      { subpath: './package.json', condition: 'default', file: './package.json' },
    ]);
    expect(exportedSubpaths(exports)).toEqual(['.', './package.json']);
  });

  it('reads a bare string and a conditions-only map as "."', () => {
    expect(exportedSubpaths('./dist/index.js')).toEqual(['.']);
    expect(exportedSubpaths({ types: './a.d.ts', default: './a.js' })).toEqual(['.']);
  });
});

describe('forbiddenReasons', () => {
  it.each([
    'test/server.test.ts',
    'dist/server.test.js',
    'src/index.ts',
    'dist/core/src/index.ts',
    'dist/.tsbuildinfo',
    '.env',
    '.env.local',
    '.npmrc',
    'dist/certs/server.key',
    'keys/id_ed25519',
    'tsconfig.json',
    'node_modules/x/index.js',
  ])('refuses %s', (path) => {
    expect(forbiddenReasons(path)).not.toEqual([]);
  });

  it.each([
    'dist/index.js',
    'dist/index.d.ts',
    'dist/tools/read-text-file.d.mts',
    'README.md',
    'package.json',
  ])('allows %s', (path) => {
    expect(forbiddenReasons(path)).toEqual([]);
  });
});
