/**
 * The filesystem server's extras: the official server as its peer, and the scenarios of its issue
 * (1 KiB to 10 MiB reads, a 10k-entry listing, 5k and 50k-file trees, writes, edits) on seeded
 * trees cached under the bench's output folder.
 */
import { join } from 'node:path';
import { type PlanExtras, peerTarget } from '../plan.js';
import { sealSuite } from '../scenario.js';
import { binOf, versionOf } from '../session.js';
import { type FsFixtures, filesystemFixtures, SIZES } from './filesystem/fixtures.js';
import { filesystemScenarios } from './filesystem/scenarios.js';

const OFFICIAL = '@modelcontextprotocol/server-filesystem';

export const extras: PlanExtras = {
  peers: () => [
    peerTarget('official', `official ${versionOf(OFFICIAL)}`, binOf(OFFICIAL, 'mcp-server-filesystem')),
  ],
  suites: ({ sizes }) => [
    sealSuite<FsFixtures>({
      id: 'filesystem',
      setup: ({ outDir, seed }) => filesystemFixtures(join(outDir, 'fixtures'), seed, SIZES[sizes]),
      describe: ({ dir, sizes, counts }) => ({ dir, sizes, counts }),
      scenarios: filesystemScenarios(SIZES[sizes]),
    }),
  ],
};
