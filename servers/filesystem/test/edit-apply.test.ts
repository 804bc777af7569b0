import { UserError } from '@mcpkit/core/errors';
import { describe, expect, it } from 'vitest';
import { applyEdits, dominantEol } from '../src/fs/edit.js';

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('applyEdits: exact matches', () => {
  it('replaces a unique match and reports its line', () => {
    const r = applyEdits('one\ntwo\nthree\n', [{ oldText: 'two', newText: 'TWO' }]);
    expect(r.text).toBe('one\nTWO\nthree\n');
    expect(r.applied).toEqual([{ index: 0, mode: 'exact', count: 1, line: 2, endLine: 2 }]);
  });

  it('refuses an ambiguous match, saying how many and where, and suggests context or replaceAll', () => {
    const message = failure(() =>
      applyEdits('x = 1\ny = 2\nx = 1\n', [{ oldText: 'x = 1', newText: 'x = 3' }]),
    );
    expect(message).toContain('matches 2 places');
    expect(message).toContain('lines 1, 3');
    expect(message).toContain('replaceAll');
    expect(message).toMatch(/surrounding lines/);
  });

  it('counts overlapping occurrences as ambiguous', () => {
    expect(failure(() => applyEdits('aaa', [{ oldText: 'aa', newText: 'b' }]))).toContain('2 places');
  });

  it('replaces every occurrence with replaceAll', () => {
    const r = applyEdits('a-b-a-c-a', [{ oldText: 'a', newText: 'z', replaceAll: true }]);
    expect(r.text).toBe('z-b-z-c-z');
    expect(r.applied[0]).toMatchObject({ mode: 'exact', count: 3, line: 1 });
  });

  it('refuses an empty oldText', () => {
    expect(failure(() => applyEdits('abc', [{ oldText: '', newText: 'x' }]))).toContain('empty oldText');
  });

  it('applies several edits in order, each seeing the result of the one before', () => {
    const r = applyEdits('alpha\nbeta\n', [
      { oldText: 'alpha', newText: 'gamma' },
      { oldText: 'gamma\nbeta', newText: 'delta' },
    ]);
    expect(r.text).toBe('delta\n');
    expect(r.applied.map((a) => a.index)).toEqual([0, 1]);
  });

  it('is all or nothing: a failing second edit names it and leaves the input untouched', () => {
    const input = 'keep me\nand me\n';
    const copy = `${input}`;
    const message = failure(() =>
      applyEdits(input, [
        { oldText: 'keep me', newText: 'changed' },
        { oldText: 'not there', newText: 'x' },
      ]),
    );
    expect(message).toMatch(/^Edit 2 of 2 \("not there"\) was not found/);
    expect(input).toBe(copy);
  });
});

describe('applyEdits: whitespace-tolerant matches', () => {
  const file = ['function f() {', '    if (ok) {', '        run();', '    }', '}', ''].join('\n');

  it('matches with indentation ignored and re-indents newText, keeping its relative indentation', () => {
    const r = applyEdits(file, [
      {
        oldText: 'if (ok) {\n    run();\n}',
        newText: 'if (ok) {\n    run();\n    again();\n}\nelse stop();',
      },
    ]);
    expect(r.text).toBe(
      [
        'function f() {',
        '    if (ok) {',
        '        run();',
        '        again();',
        '    }',
        '    else stop();',
        '}',
        '',
      ].join('\n'),
    );
    expect(r.applied).toEqual([{ index: 0, mode: 'whitespace', count: 1, line: 2, endLine: 4 }]);
  });

  it("maps the model's spaces to the file's tabs", () => {
    const tabs = 'a {\n\tb {\n\t\tc;\n\t}\n}\n';
    const r = applyEdits(tabs, [{ oldText: '  b {\n    c;\n  }', newText: '  b {\n    d;\n  }' }]);
    expect(r.text).toBe('a {\n\tb {\n\t\td;\n\t}\n}\n');
  });

  it('puts each line of a flattened oldText back at its own level', () => {
    const r = applyEdits('function f() {\n  return 1;\n}\n', [
      { oldText: 'function f() {\nreturn 1;\n}', newText: 'function f() {\nreturn 2;\n}' },
    ]);
    expect(r.text).toBe('function f() {\n  return 2;\n}\n');
  });

  it('ignores trailing whitespace in the file', () => {
    const r = applyEdits('x  \ny\t\nz\n', [{ oldText: 'x\ny', newText: 'xy' }]);
    expect(r.text).toBe('xy\nz\n');
    expect(r.applied[0]!.mode).toBe('whitespace');
  });

  it('must be unique too, and names the lines', () => {
    const message = failure(() => applyEdits('  a\n  b\nc\n\ta\n\tb\n', [{ oldText: 'a\nb', newText: 'x' }]));
    expect(message).toContain('2 places when whitespace is ignored, at lines 1, 4');
  });

  it('removes the lines, without leaving a blank one, when newText is empty', () => {
    expect(applyEdits('a\n  b\n  c', [{ oldText: 'b\nc', newText: '' }]).text).toBe('a');
    expect(applyEdits('a\n  b \n  c\nd\n', [{ oldText: 'b\nc', newText: '' }]).text).toBe('a\nd\n');
  });

  it('says where the first line is when the lines after it differ', () => {
    const message = failure(() => applyEdits('a\nb\nc\n', [{ oldText: 'b\nX', newText: 'y' }]));
    expect(message).toContain('first line appears at line 2');
  });
});

describe('applyEdits: line endings, final newline, BOM', () => {
  it('detects the dominant line ending', () => {
    expect(dominantEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantEol('a\nb\r\nc\n')).toBe('\n');
    expect(dominantEol('no newline')).toBe('\n');
  });

  it('keeps CRLF in a CRLF file, whatever endings the edit uses', () => {
    const r = applyEdits('one\r\ntwo\r\nthree\r\n', [{ oldText: 'one\ntwo', newText: 'uno\ndos\ntres' }]);
    expect(r.text).toBe('uno\r\ndos\r\ntres\r\nthree\r\n');
    expect(r.applied[0]!.mode).toBe('exact');
  });

  it('keeps CRLF in a whitespace-tolerant match', () => {
    const r = applyEdits('a\r\n    b\r\n    c\r\n', [{ oldText: 'b\nc', newText: 'B\n  C' }]);
    expect(r.text).toBe('a\r\n    B\r\n      C\r\n');
  });

  it('keeps LF in an LF file when newText has CRLF', () => {
    expect(applyEdits('a\nb\n', [{ oldText: 'b', newText: 'x\r\ny' }]).text).toBe('a\nx\ny\n');
  });

  it('keeps a missing final newline missing', () => {
    expect(applyEdits('a\nlast', [{ oldText: 'last', newText: 'final\n' }]).text).toBe('a\nfinal');
    expect(applyEdits('a\n  last', [{ oldText: 'last\n', newText: 'final\n' }]).text).toBe('a\n  final');
  });

  it('keeps a byte order mark', () => {
    const r = applyEdits('\uFEFFfirst\nsecond\n', [{ oldText: 'first', newText: 'premier' }]);
    expect(r.text).toBe('\uFEFFpremier\nsecond\n');
    const loose = applyEdits('\uFEFF  first\n  second\n', [
      { oldText: 'first\nsecond', newText: 'one\ntwo' },
    ]);
    expect(loose.text).toBe('\uFEFF  one\n  two\n');
  });
});
