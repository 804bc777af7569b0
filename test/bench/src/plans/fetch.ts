/**
 * The fetch server's extras: mcp-fetch-server as its peer (2025 era only), installed on first use,
 * reaching the bench's 127.0.0.1 server through a name its address check accepts (peer-dns.ts), and
 * the scenarios of the issue on that server.
 */
import { join } from 'node:path';
import { installPeer, peerBin } from '../peers.js';
import { type PlanExtras, peerTarget } from '../plan.js';
import { sealSuite } from '../scenario.js';
import { PEER_HOST, peerDnsOptions } from './fetch/peer-dns.js';
import { type FetchFixtures, fetchScenarios, PEER_IMPL, SIZES } from './fetch/scenarios.js';
import { startWebServer } from './fetch/server.js';

const PEER = 'mcp-fetch-server';
const PEER_VERSION = '1.1.2';

export const extras: PlanExtras = {
  peers: async ({ outDir }) => {
    const peer = await installPeer(outDir, PEER, PEER_VERSION);
    // installPeer made the peers folder: the preload is written next to the installed peers.
    return [
      peerTarget(PEER_IMPL, `${PEER} ${peer.version}`, peerBin(peer, PEER, PEER), {
        NODE_OPTIONS: peerDnsOptions(join(outDir, 'peers')),
      }),
    ];
  },
  suites: ({ sizes }) => {
    const chosen = SIZES[sizes];
    return [
      sealSuite<FetchFixtures>({
        id: 'fetch',
        setup: async ({ seed }) => {
          const web = await startWebServer(seed, chosen.articleBytes, chosen.smallPages);
          const port = new URL(web.origin).port;
          return {
            // Ours reaches 127.0.0.1 only because the operator allowed it, as a user would.
            args: [],
            origin: web.origin,
            peerOrigin: `http://${PEER_HOST}:${port}`,
            articleBytes: web.articleBytes,
            smallPages: chosen.smallPages,
            close: web.close,
          };
        },
        teardown: (fixtures) => fixtures.close(),
        describe: ({ articleBytes, smallPages }) => ({ articleBytes, smallPages }),
        scenarios: fetchScenarios(chosen).map((scenario) => ({
          ...scenario,
          serverArgs: { ours: ['--allow-host', '127.0.0.1'] },
        })),
      }),
    ];
  },
};
