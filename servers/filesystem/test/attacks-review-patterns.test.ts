/**
 * The review attack corpus, patterns: globs and .gitignore rules ran as backtracking regexes on the
 * server's only thread. Hostile patterns now answer at once through every tool that takes one, and
 * the regex-free matchers decide as picomatch and the ignore package do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect } from '@mcpkit/core/testing';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitignoreRules } from '../src/fs/gitignore-rules.js';
import { compileGlob } from '../src/fs/glob.js';
import { compileGlobTest, expandBraces, MAX_ALTERNATIVES } from '../src/fs/glob-match.js';
import { createFilesystemApp } from '../src/server.js';
import type { Era, World } from './attacks-review-kit.js';
import { textOf, world } from './harness.js';

const since = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
};

describe('finding: glob and .gitignore patterns cannot stall the server', () => {
  let w: World;
  let app: App;
  const STARS = `${'*a'.repeat(12)}*b`;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, 'a'.repeat(36)), 'needle\n');
    // A chain of 150 directories with a file on every level: the rule below then backtracks on each
    // of them (about eight seconds in all with a regex; the real attack goes deeper and never ends).
    const deep = join(w.allowed, 'deep');
    let level = deep;
    for (let i = 0; i < 150; i++) {
      level = join(level, 'x');
      mkdirSync(level, { recursive: true });
      writeFileSync(join(level, 'z'), '');
    }
    writeFileSync(join(deep, '.gitignore'), '**/x/**/x/**/x/**/y\n');
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      ['search_files pattern', 'search_files', () => ({ path: '.', pattern: STARS })],
      [
        'directory_tree excludePatterns',
        'directory_tree',
        () => ({ path: '.', excludePatterns: [STARS], maxDepth: 1 }),
      ],
      ['search_content include', 'search_content', () => ({ path: '.', query: 'needle', include: STARS })],
      [
        'search_files excludePatterns with a path glob',
        'search_files',
        () => ({ path: 'deep', pattern: 'y', excludePatterns: ['**/x/**/x/**/x/**/y'] }),
      ],
      [
        'a hostile .gitignore over a deep tree',
        'search_files',
        () => ({ path: 'deep', pattern: 'y', respectGitignore: true }),
      ],
    ])('%s answers at once', async (_label, tool, args) => {
      const session = await connect(app, { era });
      try {
        const { value: result, ms } = await since(() => session.callTool(tool, args()));
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(ms).toBeLessThan(2500);
      } finally {
        await session.close();
      }
    });
  });

  it('refuses a pattern whose {…} groups would expand past the cap, in one sentence', async () => {
    const session = await connect(app, { era: 'legacy' });
    try {
      const result = await session.callTool('search_files', { path: '.', pattern: '{a,b}'.repeat(8) });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`more than ${MAX_ALTERNATIVES} alternatives`);
    } finally {
      await session.close();
    }
  });
});

describe('glob matching without regexes', () => {
  const paths = [
    'a.ts',
    'src/a.ts',
    'src/deep/b.test.ts',
    '.env.example',
    'x/.npmrc',
    'node_modules',
    'packages/a/node_modules',
    'logs/x.log',
    'src/gen',
    'src/gen/a.ts',
    'README.md',
    'docs/guide.md',
    'a[1].txt',
    'file (1).txt',
    'ab',
    'abc/def/ghi',
    'Makefile',
  ];
  const patterns = [
    '*.ts',
    '**/*.ts',
    'src/*.ts',
    'src/**/*.test.ts',
    '*',
    '.*rc',
    'node_modules',
    '*.log',
    'src/gen/**',
    '**/gen',
    '?.ts',
    '[ab]*',
    '[^a]*',
    '[a-c]?',
    '*.{ts,md}',
    '{src,docs}/**',
    'a\\[1\\].txt',
    '**',
    'abc/**/ghi',
    '**/def/**',
    'M*file',
  ];
  it.each(patterns)('matches like picomatch for %s', (pattern) => {
    const ours = compileGlobTest(pattern);
    const theirs = picomatch(pattern, { dot: true });
    for (const path of paths) expect(ours(path), `${pattern} vs ${path}`).toBe(theirs(path));
  });

  it('keeps compileGlob rules: names at any depth, anchors, directories only, substring words', () => {
    expect(compileGlob('*.ts')('src/deep/a.ts', 'a.ts', false)).toBe(true);
    expect(compileGlob('/*.ts')('src/a.ts', 'a.ts', false)).toBe(false);
    expect(compileGlob('build/')('a/build', 'build', false)).toBe(false);
    expect(compileGlob('Config', { substring: true })('x/app.config.ts', 'app.config.ts', false)).toBe(true);
    expect(compileGlob('!*.ts')('a.md', 'a.md', false)).toBe(true);
    // `[!a]` negates, as in git and the shell (picomatch reads it as the class of "!" and "a").
    expect(compileGlobTest('[!a]*')('b.ts')).toBe(true);
    expect(compileGlobTest('[!a]*')('a.ts')).toBe(false);
  });

  it('expands braces, ranges and nested groups, and refuses too many', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('v{1..3}')).toEqual(['v1', 'v2', 'v3']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(() => expandBraces('{1..100}')).toThrow(/alternatives/);
    expect(() => expandBraces('{a,b}'.repeat(7))).toThrow(/alternatives/);
  });

  it('stays fast on the worst inputs: 255-character names, 2000-level paths, 1000-character patterns', () => {
    const name = 'a'.repeat(255);
    const path = Array(2000).fill('x').join('/');
    const cases: [string, string][] = [
      [`${'*a'.repeat(400)}*b`, name],
      [`${'**/x/'.repeat(150)}y`, path],
      [`${'**/*x*/'.repeat(120)}y`, path],
      [`${'?*'.repeat(400)}b`, name],
    ];
    for (const [pattern, input] of cases) {
      const test = compileGlobTest(pattern);
      const { ms } = (() => {
        const start = performance.now();
        test(input);
        return { ms: performance.now() - start };
      })();
      expect(ms, pattern.slice(0, 20)).toBeLessThan(1000);
    }
  });
});

describe('.gitignore rules without regexes', () => {
  const files = [
    '*.log\n!keep.log\nbuild/\n',
    '/root.txt\ndocs/*.md\n**/gen/**\n',
    'a/**/b\n# comment\n\\#hash\n\\!bang\nspace\\ \n',
    '*.tmp\n!important.tmp\nout\n/deep/x/\n',
  ];
  const paths = [
    'x.log',
    'keep.log',
    'a/keep.log',
    'build/',
    'build/x.js',
    'src/build/',
    'root.txt',
    'sub/root.txt',
    'docs/a.md',
    'docs/sub/a.md',
    'src/gen/x.ts',
    'src/gen/',
    'a/b',
    'a/x/y/b',
    '#hash',
    '!bang',
    'space ',
    'space',
    'x.tmp',
    'important.tmp',
    'out',
    'out/',
    'deep/x/',
    'other/deep/x/',
    'BUILD/',
  ];
  it.each(files)('decides like the ignore package for %j', (text) => {
    const ours = new GitignoreRules(text);
    const theirs = ignore({ allowRelativePaths: true }).add(text);
    for (const path of paths) {
      const a = ours.test(path);
      const b = theirs.test(path);
      expect({ ignored: a.ignored, unignored: a.unignored }, `${JSON.stringify(text)} vs ${path}`).toEqual({
        ignored: b.ignored,
        unignored: b.unignored,
      });
    }
  });

  it('stays fast on a hostile rule over a 2000-level path', () => {
    const rules = new GitignoreRules(`${'**/x/'.repeat(100)}y\n${'*a'.repeat(100)}*b\n`);
    const start = performance.now();
    rules.test(`${Array(2000).fill('x').join('/')}/`);
    rules.test('a'.repeat(255));
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
