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
  type WorldInstance,
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

/** A started program, as a host gives it: command, arguments, extra environment, folder. */
export interface WorldLaunch {
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

export interface ServesWorldOptions {
  /** Where the world builds its data; created when missing. */
  dir: string;
  /**
   * What to start for the world just built: a program and its arguments before the world's own, or
   * a whole launch made from the world (a host entry, a bundle's manifest).
   */
  launch:
    | { command: string; args?: readonly string[] }
    | ((built: WorldInstance) => WorldLaunch | Promise<WorldLaunch>);
  eras: readonly Era[];
  /** Further checks on each session, after its tools are listed and before the read. */
  check?(session: TestSession, tools: Tool[]): void | Promise<void>;
}

/** Sets `world` up in `dir`, then serves it with `command` once per era and checks each session. */
export async function expectServesWorld(world: TestWorld, options: ServesWorldOptions): Promise<void> {
  await mkdir(options.dir, { recursive: true });
  const built = await world.setup(options.dir);
  try {
    const { launch } = options;
    const started: WorldLaunch =
      typeof launch === 'function'
        ? await launch(built)
        : { command: launch.command, args: [...(launch.args ?? []), ...built.args] };
    for (const era of options.eras) {
      const session = await connect(undefined, {
        era,
        ...(built.roots ? { roots: built.roots } : {}),
        transport: {
          stdio: {
            command: started.command,
            args: [...started.args],
            // A host adds its own environment; PATH is the user's, free of the monorepo.
            env: { ...started.env, PATH: userPath() },
            ...(started.cwd ? { cwd: started.cwd } : {}),
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
