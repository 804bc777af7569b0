/**
 * The SQLite server's bench fixtures: one database file, built with better-sqlite3 and cached under
 * the bench's output folder, holding what the three scenarios read: a 10,000-row table, a
 * thousand small tables beside it, and one table of 200 columns. Seeded, so every machine builds the
 * same file.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Fixture } from '../../scenario.js';
import { seededRandom } from '../filesystem/fixtures.js';

export interface SqliteSizes {
  /** Rows of `items`, the table read_query returns whole. */
  rows: number;
  /** Small tables beside it, for list_tables. */
  tables: number;
  /** Columns of `wide`, for describe_table. */
  columns: number;
}

export const FULL_SIZES: SqliteSizes = { rows: 10_000, tables: 1_000, columns: 200 };
export const TINY_SIZES: SqliteSizes = { rows: 50, tables: 12, columns: 10 };
export const SIZES = { full: FULL_SIZES, tiny: TINY_SIZES } as const;

export interface SqliteFixtures extends Fixture {
  /** `[file]`: both servers take the database as their one positional argument. */
  args: [string];
  file: string;
  sizes: SqliteSizes;
  /** Tables in the file: the small ones, `items` and `wide`. */
  tableCount: number;
}

/** Bump when the layout changes, so a cached file of an older layout is rebuilt. */
const LAYOUT_VERSION = 1;

const CATEGORIES = ['tools', 'garden', 'kitchen', 'books', 'games', 'music', 'sports', 'office'];

function build(file: string, sizes: SqliteSizes, seed: number): void {
  const random = seededRandom(seed);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = DELETE');
    db.exec(
      'CREATE TABLE items(id INTEGER PRIMARY KEY, sku TEXT NOT NULL, name TEXT NOT NULL, category TEXT, price REAL, stock INTEGER, added TEXT)',
    );
    const insert = db.prepare(
      'INSERT INTO items(sku, name, category, price, stock, added) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const wideColumns = Array.from({ length: sizes.columns }, (_, i) =>
      i === 0 ? 'c0 INTEGER PRIMARY KEY' : `c${i} ${i % 3 === 0 ? 'TEXT' : i % 3 === 1 ? 'INTEGER' : 'REAL'}`,
    );
    db.transaction(() => {
      for (let i = 0; i < sizes.rows; i++) {
        const category = CATEGORIES[Math.floor(random() * CATEGORIES.length)]!;
        const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
        insert.run(
          `SKU-${String(i).padStart(6, '0')}`,
          `${category} item ${Math.floor(random() * 1e6).toString(36)}`,
          category,
          Math.round(random() * 100_000) / 100,
          Math.floor(random() * 500),
          `2026-0${1 + (i % 9)}-${day}`,
        );
      }
      for (let t = 0; t < sizes.tables; t++) {
        db.exec(
          `CREATE TABLE t${String(t).padStart(4, '0')}(id INTEGER PRIMARY KEY, label TEXT, amount REAL)`,
        );
      }
      db.exec(`CREATE TABLE wide(${wideColumns.join(', ')})`);
      db.exec('CREATE INDEX items_by_category ON items(category, price)');
    })();
  } finally {
    db.close();
  }
}

/** The fixture database under `dir`, built once per seed and size. */
export function sqliteFixtures(dir: string, seed: number, sizes: SqliteSizes): SqliteFixtures {
  const root = join(dir, `sqlite-${seed}-${sizes.rows}-${sizes.tables}-${sizes.columns}`);
  const file = join(root, 'bench.db');
  const stamp = join(root, 'layout.json');
  const layout = JSON.stringify({ LAYOUT_VERSION, seed, sizes });
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== layout) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    build(file, sizes, seed);
    writeFileSync(stamp, layout);
  }
  return { args: [file], file, sizes, tableCount: sizes.tables + 2 };
}
