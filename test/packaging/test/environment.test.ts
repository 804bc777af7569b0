/**
 * Settings from the environment, as a bundle or a container passes them: every installed server
 * bin started with `MCPKIT_READ_ONLY=true` and no `--read-only` flag offers only tools that change
 * nothing (and still every read tool of its world), and a variable with a value that cannot work
 * stops the bin with exit code 2 and one sentence naming the variable.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TestWorld, textOf, type WorldInstance } from '@mcpkit/core/testing';
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, inject, it } from 'vitest';
import { run, userEnv, userPath } from '../src/run.js';
import { binsOf } from '../src/workspaces.js';
import { worldOf } from '../src/world-session.js';

type Era = 'legacy' | 'modern';

const packed = inject('packed');
const project = inject('installed');

const serverBins = packed
  .filter((pkg) => pkg.path.startsWith('servers/'))
  .flatMap((pkg) => Object.keys(binsOf(pkg.manifest)).map((bin) => ({ pkg, bin })));

/** Builds the world in a fresh folder, hands it to `use`, and stops whatever the world started. */
async function inWorld(world: TestWorld, dir: string, use: (built: WorldInstance) => Promise<void>) {
  await mkdir(dir, { recursive: true });
  const built = await world.setup(dir);
  try {
    await use(built);
  } finally {
    await built.close?.();
  }
}

/** The tools the installed bin lists for this world in `era`, with `env` added to a user's. */
async function listTools(
  bin: string,
  built: WorldInstance,
  era: Era,
  env: Record<string, string>,
  read?: boolean,
): Promise<Tool[]> {
  const session = await connect(undefined, {
    era,
    ...(built.roots ? { roots: built.roots } : {}),
    transport: {
      stdio: {
        command: join(project, 'node_modules', '.bin', bin),
        args: built.args,
        env: { PATH: userPath(), ...env },
      },
    },
  });
  try {
    const { tools } = await session.client.listTools();
    if (read) {
      // Reading still works: the server runs, it only offers less.
      const [call] = built.reads;
      expect(textOf(await session.callTool(call.tool, call.args))).toContain(call.expect);
    }
    return tools;
  } finally {
    await session.close();
  }
}

it('finds server bins to check', () => {
  expect(serverBins.length).toBeGreaterThan(0);
});

describe.each(serverBins.map(({ pkg, bin }) => ({ pkg, bin, name: pkg.name })))('$name', ({ pkg, bin }) => {
  it.each(['legacy', 'modern'] as const)(
    'MCPKIT_READ_ONLY=true alone hides every writing tool (%s era)',
    async (era) => {
      const world = await worldOf(pkg.name, pkg.path);
      await inWorld(world, join(project, 'data', `${bin}-read-only-${era}`), async (built) => {
        const all = await listTools(bin, built, era, {});
        const readOnly = await listTools(bin, built, era, { MCPKIT_READ_ONLY: 'true' }, true);

        // Nothing offered may say it changes something, or fail to say it does not.
        const writing = readOnly.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name);
        expect(writing).toEqual([]);
        // Exactly the tools a normal run marks read-only remain, the world's read tools among them.
        const reads = all.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name);
        expect(readOnly.map((t) => t.name).sort()).toEqual([...reads].sort());
        const worldReads = world.tools.filter((name) => reads.includes(name));
        expect(worldReads.length).toBeGreaterThan(0);
        expect(readOnly.map((t) => t.name)).toEqual(expect.arrayContaining(worldReads));
        expect(reads).toContain(built.reads[0].tool);
      });
    },
    90_000,
  );

  it('stops with exit code 2 and one sentence naming MCPKIT_READ_ONLY when it is not a boolean', async () => {
    const world = await worldOf(pkg.name, pkg.path);
    await inWorld(world, join(project, 'data', `${bin}-bad-env`), async (built) => {
      const result = await run(join(project, 'node_modules', '.bin', bin), built.args, {
        cwd: project,
        env: userEnv({ MCPKIT_READ_ONLY: 'maybe' }),
      });
      expect(result.code, result.stderr).toBe(2);
      const [first] = result.stderr.split('\n');
      expect(first).toBe(`${bin}: MCPKIT_READ_ONLY must be true, false, 1 or 0.`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
    });
  }, 60_000);
});
