/**
 * The git server's extras: @cyanheads/git-mcp-server as its peer (2025 era only; it takes the
 * repository as a `path` argument of each call, so it needs no working directory set first), and
 * the scenarios of the issue (a 10k-commit log, a 20k-file status, a 5 MB diff) on repositories
 * built with plain git and cached under the bench's output folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type InstalledPeer, peerBin } from '../peers.js';
import { type PlanExtras, peerTarget } from '../plan.js';
import { sealSuite } from '../scenario.js';
import { type GitFixtures, gitFixtures, SIZES } from './git/fixtures.js';
import { gitScenarios, PEER_IMPL } from './git/scenarios.js';

const PEER = '@cyanheads/git-mcp-server';

/**
 * The peer's package.json and folder. Its `exports` map sends `./*` to `./dist/*` and has no
 * `require` condition, so `versionOf` and `binOf` (which resolve `<pkg>/package.json` through
 * require) cannot find it: its main entry is resolved as an import instead, one level below.
 */
function peerPackage(): InstalledPeer {
  const dir = fileURLToPath(new URL('../', import.meta.resolve(PEER)));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string;
    bin: Record<string, string>;
  };
  return { dir, version: manifest.version, bin: manifest.bin };
}

export const extras: PlanExtras = {
  peers: () => {
    const peer = peerPackage();
    return [peerTarget(PEER_IMPL, `${PEER_IMPL} ${peer.version}`, peerBin(peer, 'git-mcp-server', PEER))];
  },
  suites: ({ sizes }) => [
    sealSuite<GitFixtures>({
      id: 'git',
      setup: ({ outDir, seed }) => gitFixtures(join(outDir, 'fixtures'), seed, SIZES[sizes]),
      describe: ({ dir, sizes, counts }) => ({ dir, sizes, counts }),
      scenarios: gitScenarios(SIZES[sizes]),
    }),
  ],
};
