import { describe, expect, it } from 'vitest';
import { rankCompletions } from '../src/completion/index.js';
import { MAX_COMPLETION_VALUES } from '../src/completion/rank.js';

describe('rankCompletions', () => {
  it('puts exact-case prefixes first, then case-insensitive prefixes, then substrings', () => {
    const candidates = ['domain', 'Main', 'remains', 'main', 'MAINTAIN', 'mainline', 'dev', 'xmainx'];
    expect(rankCompletions(candidates, 'main')).toEqual({
      values: ['main', 'mainline', 'Main', 'MAINTAIN', 'domain', 'remains', 'xmainx'],
      total: 7,
      hasMore: false,
    });
  });

  it('keeps the source order within each group', () => {
    expect(rankCompletions(['src/z.ts', 'src/a.ts', 'lib/src.ts', 'src/m.ts'], 'src').values).toEqual([
      'src/z.ts',
      'src/a.ts',
      'src/m.ts',
      'lib/src.ts',
    ]);
  });

  it('is case-sensitive only in the first group', () => {
    expect(rankCompletions(['README.md', 'readme.txt'], 'READ').values).toEqual(['README.md', 'readme.txt']);
    expect(rankCompletions(['README.md', 'readme.txt'], 'read').values).toEqual(['readme.txt', 'README.md']);
  });

  it('drops duplicates and counts them once', () => {
    expect(rankCompletions(['a', 'ab', 'a', 'ab', 'b'], 'a')).toEqual({
      values: ['a', 'ab'],
      total: 2,
      hasMore: false,
    });
  });

  it('returns everything for an empty value, in order', () => {
    expect(rankCompletions(['c', 'a', 'b'], '')).toEqual({
      values: ['c', 'a', 'b'],
      total: 3,
      hasMore: false,
    });
  });

  it('returns nothing when nothing matches, and handles no candidates', () => {
    expect(rankCompletions(['alpha', 'beta'], 'zzz')).toEqual({ values: [], total: 0, hasMore: false });
    expect(rankCompletions([], 'a')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('caps at 100 and reports the real total', () => {
    const many = Array.from({ length: 250 }, (_, i) => `item-${String(i).padStart(3, '0')}`);
    const result = rankCompletions(many, 'item');
    expect(result.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(result.values[0]).toBe('item-000');
    expect(result.total).toBe(250);
    expect(result.hasMore).toBe(true);
  });

  it('never returns more than 100 even when asked to', () => {
    const many = Array.from({ length: 150 }, (_, i) => `v${i}`);
    expect(rankCompletions(many, '', { max: 1000 }).values).toHaveLength(100);
  });

  it('honours a smaller max, and a max of exactly the match count', () => {
    const result = rankCompletions(['a1', 'a2', 'a3', 'xa'], 'a', { max: 2 });
    expect(result).toEqual({ values: ['a1', 'a2'], total: 4, hasMore: true });
    expect(rankCompletions(['a1', 'a2'], 'a', { max: 2 }).hasMore).toBe(false);
    expect(rankCompletions(['a1'], 'a', { max: 0 })).toEqual({ values: [], total: 1, hasMore: true });
  });

  it('fills the cap across groups in rank order', () => {
    const substrings = Array.from({ length: 80 }, (_, i) => `x-key-${i}`);
    const prefixes = Array.from({ length: 80 }, (_, i) => `key-${i}`);
    const result = rankCompletions([...substrings, ...prefixes], 'key');
    expect(result.values.slice(0, 80)).toEqual(prefixes);
    expect(result.values.slice(80)).toEqual(substrings.slice(0, 20));
    expect(result.total).toBe(160);
  });

  it('accepts any iterable, such as a generator', () => {
    function* branches() {
      yield 'main';
      yield 'feature/login';
      yield 'fix/main-crash';
    }
    expect(rankCompletions(branches(), 'main').values).toEqual(['main', 'fix/main-crash']);
  });

  it('matches non-ASCII text', () => {
    expect(rankCompletions(['Über', 'über-alles', 'grün', '日本語', '日本'], 'über').values).toEqual([
      'über-alles',
      'Über',
    ]);
    expect(rankCompletions(['日本語', '東京', '日本'], '日本').values).toEqual(['日本語', '日本']);
  });
});
