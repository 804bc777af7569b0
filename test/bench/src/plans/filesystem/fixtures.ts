import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixture } from '../../scenario.js';

/** How big each filesystem fixture is. The full set matches the server issue; the smoke test shrinks it. */
export interface FixtureSizes {
  smallFileBytes: number;
  bigFileBytes: number;
  editFileBytes: number;
  wideDirEntries: number;
  smallTreeFiles: number;
  largeTreeFiles: number;
}

export const FULL_SIZES: FixtureSizes = {
  smallFileBytes: 1024,
  bigFileBytes: 10 * 1024 * 1024,
  editFileBytes: 16 * 1024,
  wideDirEntries: 10_000,
  smallTreeFiles: 5_000,
  largeTreeFiles: 50_000,
};

export const TINY_SIZES: FixtureSizes = {
  smallFileBytes: 1024,
  bigFileBytes: 64 * 1024,
  editFileBytes: 16 * 1024,
  wideDirEntries: 50,
  smallTreeFiles: 50,
  largeTreeFiles: 120,
};

/** The sizes `--sizes full|tiny` picks. */
export const SIZES = { full: FULL_SIZES, tiny: TINY_SIZES } as const;

/** The generated files, all under `dir`, which is the one directory every server is given. */
export interface FsFixtures extends Fixture {
  /** `[dir]`: the servers' only allowed directory. */
  args: [string];
  dir: string;
  smallFile: string;
  bigFile: string;
  /** A 16 KiB text with one `marker: alpha` line that edits toggle; copied per session, never edited. */
  editTemplate: string;
  wideDir: string;
  smallTree: string;
  largeTree: string;
  /** Writable space for write and edit scenarios; emptied at the start of every run. */
  scratch: string;
  sizes: FixtureSizes;
  /** Glob that search scenarios look for; about a third of the tree files match. */
  treePattern: string;
  /** Literal that about one tree file in 64 contains. */
  needle: string;
  /** The file counts each tree was built with, to check answers against. */
  counts: { smallTree: number; largeTree: number; patternHits: Record<'smallTree' | 'largeTree', number> };
}

export const EDIT_FROM = 'marker: alpha';
export const EDIT_TO = 'marker: omega';
const NEEDLE = 'bench-needle';
const PATTERN = '**/*.ts';
/** Bump when the layout changes, so a cached fixture of an older layout is rebuilt. */
const LAYOUT_VERSION = 1;

const WORDS = [
  'alpha',
  'bravo',
  'cargo',
  'delta',
  'ember',
  'fable',
  'gamma',
  'harbor',
  'index',
  'jolly',
  'kernel',
  'lumen',
  'mango',
  'nectar',
  'orbit',
  'pixel',
  'quartz',
  'raven',
  'sable',
  'tango',
  'umber',
  'vector',
  'willow',
  'xenon',
  'yonder',
  'zephyr',
  'anchor',
  'beacon',
  'cobalt',
  'dynamo',
  'falcon',
  'glacier',
];
// Weighted so that `**/*.ts` matches about a third of the files, as in a typical TypeScript repository.
const EXTENSIONS = ['ts', 'ts', 'md', 'json', 'js', 'txt'];

/** mulberry32: a tiny seeded generator, so every machine builds byte-identical fixtures. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => pick(random, WORDS)).join(' ');
}

/** Text of exactly `bytes` bytes (ASCII), in lines of up to 80 characters. */
function textOf(random: () => number, bytes: number): string {
  const lines: string[] = [];
  let length = 0;
  while (length < bytes) {
    const line = sentence(random, 4 + Math.floor(random() * 8)).slice(0, 79);
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes - 1) + '\n';
}

const FILES_PER_DIR = 25;
const FANOUT = 6;

/**
 * A source-like tree: directories of about 25 files, six subdirectories each, so 50k files sit in
 * 2,000 directories five levels deep. Returns how many files match the search pattern.
 */
function writeTree(root: string, files: number, random: () => number): number {
  const dirCount = Math.max(1, Math.ceil(files / FILES_PER_DIR));
  const dirs: string[] = [root];
  mkdirSync(root, { recursive: true });
  for (let j = 1; j < dirCount; j++) {
    const parent = dirs[Math.floor((j - 1) / FANOUT)]!;
    const dir = join(parent, `${pick(random, WORDS)}-${j}`);
    mkdirSync(dir);
    dirs.push(dir);
  }
  let hits = 0;
  for (let i = 0; i < files; i++) {
    const ext = pick(random, EXTENSIONS);
    if (ext === 'ts') hits++;
    const lines = Array.from({ length: 3 + Math.floor(random() * 10) }, () =>
      sentence(random, 3 + Math.floor(random() * 6)),
    );
    if (random() < 1 / 64) lines.splice(Math.floor(lines.length / 2), 0, `// ${NEEDLE} ${i}`);
    writeFileSync(
      join(dirs[Math.floor(i / FILES_PER_DIR)]!, `${pick(random, WORDS)}-${i}.${ext}`),
      `${lines.join('\n')}\n`,
    );
  }
  return hits;
}

/**
 * Builds the filesystem fixtures for a seed under `cacheDir`, or reuses the ones already there: a
 * 50k-file tree takes a while to write, and identical inputs make runs comparable.
 */
export function filesystemFixtures(cacheDir: string, seed: number, sizes: FixtureSizes): FsFixtures {
  const key = createHash('sha256')
    .update(JSON.stringify({ LAYOUT_VERSION, seed, sizes }))
    .digest('hex')
    .slice(0, 10);
  const dir = join(cacheDir, `filesystem-${seed}-${key}`);
  const paths = {
    dir,
    smallFile: join(dir, 'small.txt'),
    bigFile: join(dir, 'big.txt'),
    editTemplate: join(dir, 'edit-template.txt'),
    wideDir: join(dir, 'wide'),
    smallTree: join(dir, 'tree-small'),
    largeTree: join(dir, 'tree-large'),
    scratch: join(dir, 'scratch'),
  };
  const manifest = join(dir, 'manifest.json');
  let counts: FsFixtures['counts'];
  if (existsSync(manifest)) {
    counts = (JSON.parse(readFileSync(manifest, 'utf8')) as { counts: FsFixtures['counts'] }).counts;
  } else {
    // A half-written fixture (interrupted run) has no manifest: start it over.
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(paths.wideDir, { recursive: true });
    const random = seededRandom(seed);
    writeFileSync(paths.smallFile, textOf(random, sizes.smallFileBytes));
    writeFileSync(paths.bigFile, textOf(random, sizes.bigFileBytes));
    const edit = textOf(random, sizes.editFileBytes - EDIT_FROM.length - 1).split('\n');
    edit.splice(Math.floor(edit.length / 2), 0, EDIT_FROM);
    writeFileSync(paths.editTemplate, edit.join('\n'));
    for (let i = 0; i < sizes.wideDirEntries; i++) {
      writeFileSync(
        join(paths.wideDir, `${pick(random, WORDS)}-${String(i).padStart(5, '0')}.txt`),
        `${i}\n`,
      );
    }
    const smallHits = writeTree(paths.smallTree, sizes.smallTreeFiles, random);
    const largeHits = writeTree(paths.largeTree, sizes.largeTreeFiles, random);
    counts = {
      smallTree: sizes.smallTreeFiles,
      largeTree: sizes.largeTreeFiles,
      patternHits: { smallTree: smallHits, largeTree: largeHits },
    };
    writeFileSync(manifest, JSON.stringify({ seed, sizes, counts }, null, 2));
  }
  rmSync(paths.scratch, { recursive: true, force: true });
  mkdirSync(paths.scratch);
  return { ...paths, args: [dir], sizes, treePattern: PATTERN, needle: NEEDLE, counts };
}
