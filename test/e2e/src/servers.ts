/**
 * The servers of the end-to-end matrix: every server folder in the workspace (found by core's test
 * kit from the root `workspaces` globs), each run on the world its `test/world.ts` describes, and
 * on its every-feature scenario where its folder has one (`test/e2e.ts`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  builtBin,
  type DiscoveredServer,
  discoverServers,
  loadWorld,
  type Scenario,
  type TestWorld,
} from '@mcpkit/core/testing';

/** The repository root: this file is test/e2e/src/servers.ts. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface E2eServer {
  server: DiscoveredServer;
  world: TestWorld;
  /** The every-feature scenario, when the server folder has one. */
  scenario?: Scenario;
}

/** Every discovered server, with its world and its every-feature scenario if there is one. */
export async function e2eServers(root = ROOT): Promise<E2eServer[]> {
  return Promise.all(
    discoverServers(root).map(async (server) => {
      builtBin(server);
      const world = await loadWorld(server);
      const file = join(server.dir, 'test', 'e2e.ts');
      if (!existsSync(file)) return { server, world };
      const { scenario } = (await import(pathToFileURL(file).href)) as { scenario?: Scenario };
      return { server, world, ...(scenario ? { scenario } : {}) };
    }),
  );
}
