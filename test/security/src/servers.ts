/**
 * Every server under attack: each server folder in the workspace (found by core's test kit from the
 * root `workspaces` globs), run as its built bin on the world its `test/world.ts` describes. A new
 * server is covered without an edit here.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtBin, discoverServers, loadWorld, type TestWorld } from '@mcpkit/core/testing';

/** The repository root: this file is test/security/src/servers.ts. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A read-only tool call whose answer contains `expect`, and nothing the other call's does. */
export interface ReadCall {
  tool: string;
  arguments: Record<string, unknown>;
  expect: string;
}

export interface Fixture {
  /** Arguments for the bin: its directories, repository, database or URL. */
  args: string[];
  /** Two calls with different answers, for the "answers never cross" check. */
  reads: [ReadCall, ReadCall];
  cleanup(): Promise<void>;
}

export interface ServerUnderTest {
  name: string;
  /** Absolute path of the built bin script. */
  bin: string;
  /** A tool every good client must find in `tools/list`. */
  tool: string;
  fixture(): Promise<Fixture>;
}

function underTest(name: string, bin: string, world: TestWorld): ServerUnderTest {
  return {
    name,
    bin,
    tool: world.tools[0] as string,
    async fixture() {
      const dir = await realpath(await mkdtemp(join(tmpdir(), `mcpkit-security-${name}-`)));
      const built = await world.setup(dir);
      const read = (r: (typeof built.reads)[number]): ReadCall => ({
        tool: r.tool,
        arguments: r.args,
        expect: r.expect,
      });
      return {
        args: built.args,
        reads: [read(built.reads[0]), read(built.reads[1])],
        async cleanup() {
          await built.close?.();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

export const SERVERS: ServerUnderTest[] = await Promise.all(
  discoverServers(ROOT).map(async (server) => {
    return underTest(server.name, builtBin(server), await loadWorld(server));
  }),
);
