/**
 * The SQLite server's extras: mcp-server-sqlite-npx as its peer (a Node port of the archived
 * official Python server; 2025 era only), installed on first use because it builds the sqlite3
 * native addon, and the scenarios of the issue on one seeded database file.
 */
import { join } from 'node:path';
import { installPeer, peerBin } from '../peers.js';
import { type PlanExtras, peerTarget } from '../plan.js';
import { sealSuite } from '../scenario.js';
import { SIZES, type SqliteFixtures, sqliteFixtures } from './sqlite/fixtures.js';
import { PEER_IMPL, sqliteScenarios } from './sqlite/scenarios.js';

const PEER = 'mcp-server-sqlite-npx';
const PEER_VERSION = '0.8.0';

export const extras: PlanExtras = {
  peers: async ({ outDir }) => {
    const peer = await installPeer(outDir, PEER, PEER_VERSION);
    return [peerTarget(PEER_IMPL, `${PEER} ${peer.version}`, peerBin(peer, PEER, PEER))];
  },
  suites: ({ sizes }) => [
    sealSuite<SqliteFixtures>({
      id: 'sqlite',
      setup: ({ outDir, seed }) => sqliteFixtures(join(outDir, 'fixtures'), seed, SIZES[sizes]),
      describe: ({ file, sizes, tableCount }) => ({ file, sizes, tableCount }),
      scenarios: sqliteScenarios(SIZES[sizes]),
    }),
  ],
};
