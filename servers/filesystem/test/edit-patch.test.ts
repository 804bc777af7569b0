import { UserError } from '@mcpkit/core/errors';
import { describe, expect, it } from 'vitest';
import { applyUnifiedDiff, parsePatchFiles } from '../src/fs/patch.js';

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a UserError');
}

const TWO_FILES = [
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
  '@@ -1,2 +1,2 @@ section',
  '-alpha',
  '+ALPHA',
  ' beta',
  '@@ -5,2 +5,2 @@ later',
  ' epsilon',
  '-zeta',
  '+ZETA',
  '',
].join('\n');

const B = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n';

describe('parsePatchFiles', () => {
  it('strips a/ and b/ and classifies creation and deletion', () => {
    const files = parsePatchFiles(
      [
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1 @@',
        '+hi',
        '--- a/old.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
        '--- ./plain.txt',
        '+++ ./plain.txt',
        '@@ -1 +1 @@',
        '-x',
        '+y',
        '',
      ].join('\n'),
    );
    expect(files.map((f) => [f.path, f.action])).toEqual([
      ['new.txt', 'created'],
      ['old.txt', 'deleted'],
      ['plain.txt', 'modified'],
    ]);
  });

  it('keeps escaping names as they are, for the path guard to refuse', () => {
    const files = parsePatchFiles('--- a/../../outside/x\n+++ b/../../outside/x\n@@ -1 +1 @@\n-a\n+b\n');
    expect(files[0]!.path).toBe('../../outside/x');
  });

  it('refuses text that is not a patch, renames and hunks without file names', () => {
    expect(failure(() => parsePatchFiles('just some words\n'))).toContain('no file changes');
    expect(failure(() => parsePatchFiles('@@ -1 +1 @@\n-a\n+b\n'))).toContain('without ---/+++');
    expect(
      failure(() =>
        parsePatchFiles('diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n'),
      ),
    ).toContain('move_file');
    expect(failure(() => parsePatchFiles('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n'))).toContain(
      'could not be read',
    );
  });
});

describe('applyUnifiedDiff', () => {
  it('applies a single-file patch', () => {
    const [r] = applyUnifiedDiff(
      new Map([['a.txt', 'x\n']]),
      '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n',
    );
    expect(r).toEqual({ path: 'a.txt', action: 'modified', hunks: 1, text: 'y\n' });
  });

  it('applies a multi-file patch with several hunks', () => {
    const out = applyUnifiedDiff(
      new Map([
        ['a.txt', 'one\ntwo\nthree\n'],
        ['src/b.txt', B],
      ]),
      TWO_FILES,
    );
    expect(out).toEqual([
      { path: 'a.txt', action: 'modified', hunks: 1, text: 'one\nTWO\nthree\n' },
      {
        path: 'src/b.txt',
        action: 'modified',
        hunks: 2,
        text: B.replace('alpha', 'ALPHA').replace('zeta', 'ZETA'),
      },
    ]);
  });

  it('fails as a whole when a later hunk does not fit, naming the file, the hunk and its header', () => {
    const files = new Map([
      ['a.txt', 'one\ntwo\nthree\n'],
      ['src/b.txt', B.replace('zeta', 'changed meanwhile')],
    ]);
    const message = failure(() => applyUnifiedDiff(files, TWO_FILES));
    expect(message).toContain('Hunk 2 of 2 for "src/b.txt" (@@ -5,2 +5,2 @@ later) does not apply');
    expect(message).toContain('Nothing was changed');
  });

  it('accepts a shifted context only when fuzz allows it', () => {
    const file = 'a\nb\nc\nd\ne\n';
    const patch = '--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n X\n';
    expect(failure(() => applyUnifiedDiff(new Map([['f', file]]), patch))).toContain('does not apply');
    expect(applyUnifiedDiff(new Map([['f', file]]), patch, { fuzz: 1 })[0]!.text).toBe('a\nb\nC\nd\ne\n');
  });

  it('creates and deletes files, and refuses to create one that exists or delete a different one', () => {
    const create = '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n';
    expect(applyUnifiedDiff(new Map(), create)).toEqual([
      { path: 'n.txt', action: 'created', hunks: 1, text: 'hello\nworld\n' },
    ]);
    expect(failure(() => applyUnifiedDiff(new Map([['n.txt', '']]), create))).toContain('already exists');
    const remove = '--- a/d.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n';
    expect(applyUnifiedDiff(new Map([['d.txt', 'x\ny\n']]), remove)).toEqual([
      { path: 'd.txt', action: 'deleted', hunks: 1, text: undefined },
    ]);
    expect(failure(() => applyUnifiedDiff(new Map([['d.txt', 'x\ny\nz\n']]), remove))).toContain(
      'lines the patch does not remove',
    );
    expect(failure(() => applyUnifiedDiff(new Map(), remove))).toContain('does not exist');
  });

  it('keeps CRLF and a BOM', () => {
    const [r] = applyUnifiedDiff(
      new Map([['w.txt', '\uFEFFone\r\ntwo\r\n']]),
      '--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+deux\n',
    );
    expect(r!.text).toBe('\uFEFFone\r\ndeux\r\n');
  });

  it('applies two sections for the same file one after the other', () => {
    const patch = '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-b\n+c\n';
    expect(applyUnifiedDiff(new Map([['f', 'a\n']]), patch)).toEqual([
      { path: 'f', action: 'modified', hunks: 2, text: 'c\n' },
    ]);
  });
});
