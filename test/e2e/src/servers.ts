/**
 * The servers of the end-to-end matrix: every server folder in the workspace (found by core's test
 * kit from the root `workspaces` globs), each run on the world its `test/world.ts` describes, plus
 * the every-feature scenario in `scenarios/<folder name>.ts` where one is written.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type DiscoveredServer, discoverServers, type TestWorld } from '@mcpkit/core/testing';
import type { ServerSpec } from './scenario.js';

/** The repository root: this file is test/e2e/src/servers.ts. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface E2eServer {
  server: DiscoveredServer;
  world: TestWorld;
  /** The every-feature scenario, when this layer has one for the server. */
  scenario?: (server: DiscoveredServer) => ServerSpec;
}

/** Every discovered server, with its world and its every-feature scenario if there is one. */
export async function e2eServers(root = ROOT): Promise<E2eServer[]> {
  return Promise.all(
    discoverServers(root).map(async (server) => {
      if (!existsSync(server.bin)) {
        throw new Error(`${server.path} is not built (no ${server.bin}); run "npx turbo run build" first.`);
      }
      const { world } = (await import(pathToFileURL(server.world).href)) as { world: TestWorld };
      const file = new URL(`./scenarios/${server.name}.ts`, import.meta.url);
      if (!existsSync(file)) return { server, world };
      const { scenario } = (await import(file.href)) as { scenario: E2eServer['scenario'] };
      return { server, world, ...(scenario ? { scenario } : {}) };
    }),
  );
}
