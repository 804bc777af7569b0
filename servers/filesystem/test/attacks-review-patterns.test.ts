/**
 * The review attack corpus, patterns: globs and .gitignore rules ran as backtracking regexes on the
 * server's only thread. Hostile patterns now answer through every tool that takes one, no regex
 * built from them ever runs, and the regex-free matchers decide as picomatch and the ignore
 * package do. Nothing here is timed: the inputs are sized so a backtracking matcher would run for
 * ages, which the test's timeout turns into a failure, and a regex made from a pattern is caught
 * before it can run at all.
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

/**
 * Runs `fn` and returns the sources of the regexes it ran whose source contains `marker` (every
 * regex, by default). Those are not run but answered "no match": one built from a hostile pattern
 * would backtrack for ever, and the test must fail, not hang.
 */
async function regexesRun<T>(fn: () => T | Promise<T>, marker = ''): Promise<{ value: T; ran: string[] }> {
  const exec = RegExp.prototype.exec;
  const ran: string[] = [];
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    if (!this.source.includes(marker)) return exec.call(this, input);
    ran.push(this.source);
    return null;
  };
  try {
    return { value: await fn(), ran };
  } finally {
    RegExp.prototype.exec = exec;
  }
}

/** In every hostile pattern and every name it is tried on; in no regex of the server's own. */
const MARK = 'xq';

describe('finding: glob and .gitignore patterns cannot stall the server', () => {
  let w: World;
  let app: App;
  // Against a 200-character name of pairs, a regex tries about 10^23 ways to place 24 of them.
  const NAME = MARK.repeat(100);
  const STARS = `${`*${MARK}`.repeat(24)}*z`;
  // On a 150-level path, a regex tries about 10^13 ways to place the 8 directories this names.
  const DEEP_RULE = `${`**/${MARK}/`.repeat(8)}y`;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, NAME), 'needle\n');
    // A chain of 150 directories with a file on every level, each path tested against the rule.
    const deep = join(w.allowed, 'deep');
    let level = deep;
    for (let i = 0; i < 150; i++) {
      level = join(level, MARK);
      mkdirSync(level, { recursive: true });
      writeFileSync(join(level, 'z'), '');
    }
    writeFileSync(join(deep, '.gitignore'), `${DEEP_RULE}\n`);
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  // Every file of the chain is found: the rule was tested on each path, and matched none.
  const everyLevel = (text: string) => {
    expect(text).toContain(`${MARK}/z`);
    expect(text).not.toContain('No matches found');
  };

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      [
        'search_files pattern',
        'search_files',
        () => ({ path: '.', pattern: STARS }),
        (text: string) => expect(text).toBe('No matches found'),
      ],
      [
        'directory_tree excludePatterns',
        'directory_tree',
        () => ({ path: '.', excludePatterns: [STARS], maxDepth: 1 }),
        (text: string) => expect(text).toContain(NAME),
      ],
      [
        'search_content include',
        'search_content',
        () => ({ path: '.', query: 'needle', include: STARS }),
        (text: string) => expect(text).not.toContain(NAME),
      ],
      [
        'search_files excludePatterns with a path glob',
        'search_files',
        () => ({ path: 'deep', pattern: 'z', excludePatterns: [DEEP_RULE] }),
        everyLevel,
      ],
      [
        'a hostile .gitignore over a deep tree',
        'search_files',
        () => ({ path: 'deep', pattern: 'z', respectGitignore: true }),
        everyLevel,
      ],
    ])('%s answers, and no regex is made of the pattern', async (_label, tool, args, expectText) => {
      const session = await connect(app, { era });
      try {
        const { value: result, ran } = await regexesRun(() => session.callTool(tool, args()), MARK);
        expect(ran).toEqual([]);
        expect(result.isError, textOf(result)).toBeFalsy();
        expectText(textOf(result));
        // search_content has a time budget: it answered in full, not by running out of it.
        if (tool === 'search_content') expect(result.structuredContent).toMatchObject({ timedOut: false });
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

  it('decides the worst inputs without a regex: 255-character names, 2000-level paths, long patterns', async () => {
    const name = 'a'.repeat(255);
    const path = Array(2000).fill('x').join('/');
    // Each hostile pattern beside one of the same shape that matches, so the answers are checked too.
    const cases: [string, string, boolean][] = [
      [`${'*a'.repeat(400)}*b`, name, false],
      [`${'*a'.repeat(100)}*`, name, true],
      [`${'**/x/'.repeat(150)}y`, path, false],
      [`${'**/x/'.repeat(150)}x`, path, true],
      [`${'**/*x*/'.repeat(120)}y`, path, false],
      [`${'**/*x*/'.repeat(120)}*`, path, true],
      [`${'?*'.repeat(400)}b`, name, false],
      [`${'?*'.repeat(100)}a`, name, true],
    ];
    for (const [pattern, input, expected] of cases) {
      const test = compileGlobTest(pattern);
      const { value, ran } = await regexesRun(() => test(input));
      expect(ran, pattern.slice(0, 20)).toEqual([]);
      expect(value, pattern.slice(0, 20)).toBe(expected);
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

  it('decides hostile rules over a 2000-level path and a 255-character name without a regex', async () => {
    const rules = new GitignoreRules(`${'**/x/'.repeat(100)}y\n${'*a'.repeat(100)}*b\n${'*a'.repeat(50)}*\n`);
    const { value, ran } = await regexesRun(() => [
      rules.test(`${Array(2000).fill('x').join('/')}/`),
      rules.test('a'.repeat(255)),
    ]);
    expect(ran).toEqual([]);
    expect(value).toEqual([
      { ignored: false, unignored: false },
      { ignored: true, unignored: false },
    ]);
  });
});
