/**
 * A bin serving its server's test world, as a user runs it: the world set up in a folder of its
 * own, the bin started over stdio with a PATH free of the monorepo, and checked to list the world's
 * tools and answer its first read (so code the bin loads late, worker scripts and lazy imports,
 * runs too). The installed tarball, the standalone bundle and the forked template all check this.
 */
import { mkdir } from 'node:fs/promises';
import {
  connect,
  discoverServers,
  loadWorld,
  type TestSession,
  type TestWorld,
  textOf,
} from '@mcpkit/core/testing';
import type { Tool } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { userPath } from './run.js';
import { ROOT } from './workspaces.js';

type Era = 'legacy' | 'modern';

let servers: ReturnType<typeof discoverServers> | undefined;

/** The test world of the workspace package `name`; throws when the package has none. */
export async function worldOf(name: string, path: string): Promise<TestWorld> {
  servers ??= discoverServers(ROOT);
  const server = servers.find((s) => s.packageName === name);
  if (server === undefined) throw new Error(`${path} has a bin but no test/world.ts`);
  return loadWorld(server);
}

export interface ServesWorldOptions {
  /** Where the world builds its data; created when missing. */
  dir: string;
  /** The program to start, and its arguments before the world's own. */
  command: string;
  args?: readonly string[];
  eras: readonly Era[];
  /** Further checks on each session, after its tools are listed and before the read. */
  check?(session: TestSession, tools: Tool[]): void | Promise<void>;
}

/** Sets `world` up in `dir`, then serves it with `command` once per era and checks each session. */
export async function expectServesWorld(world: TestWorld, options: ServesWorldOptions): Promise<void> {
  await mkdir(options.dir, { recursive: true });
  const built = await world.setup(options.dir);
  try {
    for (const era of options.eras) {
      const session = await connect(undefined, {
        era,
        ...(built.roots ? { roots: built.roots } : {}),
        transport: {
          stdio: {
            command: options.command,
            args: [...(options.args ?? []), ...built.args],
            env: { PATH: userPath() },
          },
        },
      });
      try {
        const { tools } = await session.client.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(world.tools));
        await options.check?.(session, tools);
        const [read] = built.reads;
        expect(textOf(await session.callTool(read.tool, read.args))).toContain(read.expect);
      } finally {
        await session.close();
      }
    }
  } finally {
    await built.close?.();
  }
}
