import { describe, expect, it } from 'vitest';
import { compileExcludes, compileGlob } from '../src/fs/glob.js';

const file = (relative: string) => [relative, relative.split('/').at(-1)!, false] as const;
const dir = (relative: string) => [relative, relative.split('/').at(-1)!, true] as const;

describe('compileGlob', () => {
  it('matches a pattern without "/" against the name at any depth (official "*.ts" finds all)', () => {
    const ts = compileGlob('*.ts');
    expect(ts(...file('a.ts'))).toBe(true);
    expect(ts(...file('src/deep/b.ts'))).toBe(true);
    expect(ts(...file('src/b.tsx'))).toBe(false);
    expect(compileGlob('**/*.ts')(...file('src/deep/b.ts'))).toBe(true);
    expect(compileGlob('**/*.ts')(...file('top.ts'))).toBe(true);
  });

  it('matches a pattern with "/" against the path from the search root', () => {
    const direct = compileGlob('src/*.ts');
    expect(direct(...file('src/a.ts'))).toBe(true);
    expect(direct(...file('src/deep/a.ts'))).toBe(false);
    expect(direct(...file('lib/src/a.ts'))).toBe(false);
    expect(compileGlob('src/**/*.test.ts')(...file('src/x/y/z.test.ts'))).toBe(true);
  });

  it('anchors a name pattern at the root with a leading "/" or "./"', () => {
    for (const pattern of ['/*.ts', './*.ts']) {
      const top = compileGlob(pattern);
      expect(top(...file('a.ts'))).toBe(true);
      expect(top(...file('src/a.ts'))).toBe(false);
    }
    expect(compileGlob('/')(...file('a'))).toBe(false);
  });

  it('matches dot-files with * (dot: true) and directories only with a trailing "/"', () => {
    expect(compileGlob('*')(...file('.env.example'))).toBe(true);
    expect(compileGlob('.*rc')(...file('x/.npmrc'))).toBe(true);
    const build = compileGlob('build/');
    expect(build(...dir('a/build'))).toBe(true);
    expect(build(...file('a/build'))).toBe(false);
  });

  it('with substring, a plain word matches names containing it, ignoring case', () => {
    const word = compileGlob('Config', { substring: true });
    expect(word(...file('src/app.config.ts'))).toBe(true);
    expect(word(...dir('CONFIG'))).toBe(true);
    expect(word(...file('src/conf.ts'))).toBe(false);
    // Without the option, or with a glob character, it is a glob again.
    expect(compileGlob('Config')(...file('src/app.config.ts'))).toBe(false);
    expect(compileGlob('config*', { substring: true })(...file('app.config.ts'))).toBe(false);
  });

  it('never lets ".." in a pattern reach outside: it only ever sees paths below the root', () => {
    const up = compileGlob('../**', { substring: true });
    expect(up(...file('a.txt'))).toBe(false);
    expect(up(...dir('sub'))).toBe(false);
  });
});

describe('compileExcludes', () => {
  it('is undefined for no patterns and true when any pattern matches', () => {
    expect(compileExcludes(undefined)).toBeUndefined();
    expect(compileExcludes(['', ''])).toBeUndefined();
    const skip = compileExcludes(['node_modules', '*.log', 'src/gen/**'])!;
    expect(skip(...dir('node_modules'))).toBe(true);
    expect(skip(...dir('packages/a/node_modules'))).toBe(true);
    expect(skip(...file('logs/x.log'))).toBe(true);
    expect(skip(...dir('src/gen'))).toBe(true);
    expect(skip(...file('src/gen/a.ts'))).toBe(true);
    expect(skip(...file('src/index.ts'))).toBe(false);
  });
});
