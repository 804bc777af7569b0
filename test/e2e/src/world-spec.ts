/**
 * The end-to-end run every server gets from its test world: the bin on that world, over stdio and
 * HTTP in both eras, listing the tools the world names and answering its two read calls, then
 * shutting down cleanly with nothing left running.
 */
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiscoveredServer, TestWorld } from '@mcpkit/core/testing';
import { expect } from 'vitest';
import type { ServerSpec } from './scenario.js';
import { listPaged, textOf } from './steps.js';

export function worldSpec(server: DiscoveredServer, world: TestWorld): ServerSpec {
  return {
    name: server.name,
    title: 'its test world',
    bin: server.bin,
    async fixture() {
      const base = await realpath(await mkdtemp(join(tmpdir(), `mcpkit-e2e-world-${server.name}-`)));
      const built = await world.setup(base);
      return {
        base,
        dir: base,
        args: built.args,
        roots: built.roots ?? [],
        reads: built.reads,
        ...(built.close ? { close: built.close } : {}),
      };
    },
    model: { answer: () => 'unused' },
    async scenario(ctx) {
      expect(ctx.session.client.getServerVersion()?.version).toMatch(/^\d+\.\d+\.\d+/);
      const tools = (await listPaged(ctx, 'tools/list', 1)).map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(world.tools));
      for (const read of ctx.fixture.reads ?? []) {
        const result = await ctx.session.callTool(read.tool, read.args);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(textOf(result)).toContain(read.expect);
      }
    },
  };
}
