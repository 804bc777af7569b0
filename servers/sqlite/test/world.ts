/**
 * The SQLite server's test world, for the layers that run the built bin (end to end, conformance,
 * HTTP security, packaging, `npm start`, the bench): a small shop database in the world's folder,
 * served read-only, with two teams whose mottos cannot be mistaken for each other, so two
 * simultaneous reads have answers that never cross.
 */
import { join } from 'node:path';
import { defineTestWorld } from '@mcpkit/core/testing';
import Database from 'better-sqlite3';

export const world = defineTestWorld({
  tools: [
    'read_query',
    'list_tables',
    'describe_table',
    'append_insight',
    'explain_query',
    'search_schema',
    'export_query',
    'ask_database',
  ],
  setup(dir) {
    const file = join(dir, 'shop.db');
    const db = new Database(file);
    try {
      db.exec(`
        CREATE TABLE teams(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, motto TEXT NOT NULL);
        CREATE TABLE orders(
          id INTEGER PRIMARY KEY,
          team_id INTEGER NOT NULL REFERENCES teams(id),
          total REAL NOT NULL
        );
        CREATE INDEX orders_by_team ON orders(team_id);
      `);
      const team = db.prepare('INSERT INTO teams(name, motto) VALUES (?, ?)');
      team.run('alpha', 'alpha-apples-are-crisp');
      team.run('beta', 'beta-bananas-are-bent');
      const order = db.prepare('INSERT INTO orders(team_id, total) VALUES (?, ?)');
      for (let i = 1; i <= 40; i++) order.run((i % 2) + 1, i * 2.5);
    } finally {
      db.close();
    }
    const motto = (id: number, expect: string) => ({
      tool: 'read_query',
      args: { query: `SELECT motto FROM teams WHERE id = ${id}` },
      expect,
    });
    return {
      // Positional, as the official server and its ports take it, so the bench's peer starts on it too.
      args: [file],
      bundleSettings: { database: file },
      reads: [motto(1, 'alpha-apples-are-crisp'), motto(2, 'beta-bananas-are-bent')],
    };
  },
});
