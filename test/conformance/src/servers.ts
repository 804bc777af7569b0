/**
 * The servers under test: every server folder in the workspace (found by core's test kit from the
 * root `workspaces` globs) on the world its `test/world.ts` describes, and this package's own
 * fixture server, which serves the suite's `test_*` names and so must pass every scenario.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  builtBin,
  type ConformanceRevision,
  defineTestWorld,
  discoverServers,
  loadWorld,
  type TestWorld,
} from '@mcpkit/core/testing';

/** The repository root: this file is test/conformance/src/servers.ts. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerUnderTest {
  name: string;
  bin: string;
  world: TestWorld;
  /** False for the fixture server: it serves the suite's `test_*` names, so nothing is fixture-bound. */
  real: boolean;
}

/** This package's fixture server, as `npm run build` compiles it (`fixture-server/` to `dist/`). */
const FIXTURES_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

const fixturesWorld = defineTestWorld({
  tools: ['test_simple_text', 'test_trigger_tool_change', 'json_schema_2020_12_tool', 'slow_compute'],
  setup: () => {
    const read = (tool: string, expect: string) => ({ tool, args: {}, expect });
    return {
      args: [],
      reads: [
        read('test_simple_text', 'This is a simple text response for testing.'),
        read('test_dynamic_tool', 'Generation'),
      ],
    };
  },
});

function built(bin: string): string {
  if (!existsSync(bin))
    throw new Error(`test/conformance is not built (no ${bin}); run "npx turbo run build" first.`);
  return bin;
}

export const SERVERS: ServerUnderTest[] = [
  ...(await Promise.all(
    discoverServers(ROOT).map(async (server) => {
      return { name: server.name, bin: builtBin(server), world: await loadWorld(server), real: true };
    }),
  )),
  { name: 'fixtures', bin: built(FIXTURES_BIN), world: fixturesWorld, real: false },
];

/** The two protocol revisions every server is scored against, each on its own wire. */
export const ERAS: readonly ConformanceRevision[] = ['2025-11-25', '2026-07-28'];
export type Era = ConformanceRevision;
