/**
 * The one-test-per-name fast path of the one-directory listings: a name the closer-look test passes
 * over is kept without asking the secret filter and measured by its length. These tests hold it to
 * the slow path, name by name, on names made to slip past a quick test: other letter cases, Windows
 * suffixes, look-alike letters, control characters and other scripts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { utf8ByteLength } from '@mcpkit/core/limits';
import { createCursorCodec } from '@mcpkit/core/pagination';
import { connect } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DirectoryPageOptions, directoryPage } from '../src/fs/directory-page.js';
import { escapeName, tagged } from '../src/fs/display.js';
import { directoryFilter, type Hidden } from '../src/fs/listing.js';
import { isSensitive, SENSITIVE_DIRS, SENSITIVE_PATTERNS } from '../src/fs/sensitive.js';
import { walkStats } from '../src/fs/walk.js';
import { listDirectory } from '../src/tools/list-directory.js';
import { fsApp, textOf, treeHash, world } from './harness.js';

/** Every secret pattern in the spellings a quick test could miss, beside ordinary names. */
function trickyNames(): string[] {
  const names = new Set<string>([
    'a.txt',
    'README.md',
    'notes',
    'naïve.txt',
    '名前.txt',
    'tab\tname',
    'line\u2028sep',
  ]);
  for (const pattern of [...SENSITIVE_PATTERNS, ...SENSITIVE_DIRS]) {
    const name = pattern.replace(/\*/g, 'x');
    for (const spelling of [name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)]) {
      names.add(spelling);
      names.add(`${spelling}.`); // Windows drops trailing dots
      names.add(`${spelling} `); // and spaces
      names.add(`${spelling}::$DATA`); // and reads the default stream
    }
  }
  // The Kelvin sign lower-cases to "k": ".Key" spelled with it is still a key.
  names.add('server.\u212Aey');
  names.add('ID_RSA.pub');
  return [...names];
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const codec = createCursorCodec({ key: randomBytes(32) });
const render = (name: string, type: Parameters<typeof tagged>[0]) => tagged(type) + escapeName(name);
let w: Awaited<ReturnType<typeof world>>;
let dir: string;
let secretDir: string;
const names = trickyNames();

beforeAll(async () => {
  w = await world();
  dir = join(w.allowed, 'mixed');
  secretDir = join(w.allowed, '.ssh');
  await mkdir(dir);
  await mkdir(secretDir);
  for (const name of names) await writeFile(join(dir, name), 'x');
  for (const name of ['config', 'known_hosts']) await writeFile(join(secretDir, name), 'x');
});
afterAll(() => w.cleanup());

const options = (over: Partial<DirectoryPageOptions>): DirectoryPageOptions => ({
  codec,
  list: 'list_directory:test',
  cursor: undefined,
  pageSize: 1000,
  budgetBytes: 1 << 20,
  stats: walkStats(),
  display: 'mixed',
  render,
  ...over,
});

/** Every page of `real`, with the filter's closer-look test or without it (the slow path). */
async function pages(real: string, fast: boolean, over: Partial<DirectoryPageOptions> = {}) {
  const hidden: Hidden = { secrets: 0 };
  const filter = directoryFilter(real, true, hidden)!;
  const shown: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await directoryPage(
      real,
      options({
        ...over,
        cursor,
        exclude: filter.exclude,
        ...(fast ? { closerLook: filter.closerLook } : {}),
      }),
    );
    shown.push(page.entries.map((e) => e.name));
    cursor = page.nextCursor;
  } while (cursor);
  return { shown, hidden: hidden.secrets };
}

describe('the closer-look test of a one-directory listing', () => {
  it('matches every name the secret filter refuses, and every name outside ASCII', () => {
    const filter = directoryFilter(dir, true, { secrets: 0 })!;
    const refused = names.filter((name) => isSensitive(join(dir, name)));
    // The corpus really holds secrets, so a test that passes everything over would fail here.
    expect(refused.length).toBeGreaterThan(SENSITIVE_PATTERNS.length);
    for (const name of refused) expect(filter.closerLook.test(name), name).toBe(true);
    for (const name of names.filter((n) => /[^\u0000-\u007f]/.test(n)))
      expect(filter.closerLook.test(name), name).toBe(true);
    expect(filter.closerLook.test('a.txt')).toBe(false);
  });

  it('gives the same pages as asking the filter about every name, cut at the same bytes', async () => {
    // A budget of a few lines makes every page end on the byte count, where a name measured by
    // its length instead of its UTF-8 bytes would move the cut.
    for (const over of [{}, { budgetBytes: 64 }, { pageSize: 3 }]) {
      const slow = await pages(dir, false, over);
      const fast = await pages(dir, true, over);
      expect(fast).toEqual(slow);
      const shown = fast.shown.flat();
      expect(shown).toEqual(names.filter((name) => !isSensitive(join(dir, name))).sort(byCodeUnit));
    }
    // On one page, each secret is counted once. (A later page counts again those left out between
    // the last entry shown and the cut, as it walks over them too.)
    expect((await pages(dir, true)).hidden).toBe(names.filter((name) => isSensitive(join(dir, name))).length);
    // And every page of more than one line fits the budget in UTF-8 bytes, not just in characters.
    for (const page of (await pages(dir, true, { budgetBytes: 64 })).shown) {
      const bytes = page.reduce((sum, name) => sum + utf8ByteLength(render(name, 'file')) + 1, 0);
      if (page.length > 1) expect(bytes).toBeLessThanOrEqual(64);
    }
  });

  it('leaves out every entry of a secret directory', async () => {
    const { shown, hidden } = await pages(secretDir, true);
    expect(shown).toEqual([[]]);
    expect(hidden).toBe(2);
  });
});

describe.each(['legacy', 'modern'] as const)('list_directory over disguised secrets, %s era', (era) => {
  it('shows no secret in the text or the entries, counts them, and changes nothing', async () => {
    const before = await treeHash(w.base);
    const app = await fsApp([w.allowed], [listDirectory]);
    const s = await connect(app, { era });
    try {
      const r = await s.callTool('list_directory', { path: 'mixed', structured: true });
      const entries = (r.structuredContent as { entries: { name: string }[] }).entries.map((e) => e.name);
      const secrets = names.filter((name) => isSensitive(join(dir, name)));
      expect(entries).toEqual(names.filter((name) => !secrets.includes(name)).sort(byCodeUnit));
      for (const secret of secrets)
        expect(textOf(r).split('\n')).not.toContain(`[FILE] ${escapeName(secret)}`);
      expect(textOf(r)).toContain(`${secrets.length} entries that usually hold secrets`);
      expect(textOf(r)).toContain('[FILE] tab\\tname');
    } finally {
      await s.close();
      await app.close();
    }
    expect(await treeHash(w.base)).toEqual(before);
  });
});
