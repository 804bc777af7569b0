import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/fs/diff-view.js';

describe('unifiedDiff', () => {
  it('numbers hunks by their place in the whole file, though only the changed middle is diffed', () => {
    const before = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 500\n', 'line five hundred\n');
    const diff = unifiedDiff('big.txt', before, after)!;
    expect(diff).toBe(
      [
        '--- big.txt\toriginal',
        '+++ big.txt\tmodified',
        '@@ -497,7 +497,7 @@',
        ' line 497',
        ' line 498',
        ' line 499',
        '-line 500',
        '+line five hundred',
        ' line 501',
        ' line 502',
        ' line 503',
        '',
      ].join('\n'),
    );
  });

  it('always produces a diff that turns the old text into the new one', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 500; round++) {
      const lines = Array.from({ length: rnd(30) }, () => 'abcde'[rnd(5)]!);
      const changed = lines.slice();
      for (let k = rnd(4); k > 0; k--) {
        const at = rnd(changed.length + 1);
        const op = rnd(3);
        if (op === 0) changed.splice(at, 0, 'X');
        else if (op === 1) changed.splice(at, 1);
        else changed[at] = 'Y';
      }
      const before = lines.join('\n') + (rnd(2) ? '\n' : '');
      const after = changed.join('\n') + (rnd(2) ? '\n' : '');
      expect(applyPatch(before, unifiedDiff('f', before, after)!)).toBe(after);
    }
  });
});
