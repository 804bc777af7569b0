/**
 * The end-to-end run every server gets from its test world: the bin on that world, listing the
 * tools the world names and answering its two read calls.
 */
import { defineScenario, listPaged, type Scenario, type TestWorld, textOf } from '@mcpkit/core/testing';
import { expect } from 'vitest';

export function worldScenario(world: TestWorld): Scenario {
  // The matrix runs `setup` then `run` for one case at a time, so the reads of the last setup are
  // the ones this run checks.
  let reads: Awaited<ReturnType<TestWorld['setup']>>['reads'] | undefined;
  return defineScenario({
    async setup(dir) {
      const built = await world.setup(dir);
      reads = built.reads;
      return built;
    },
    model: { answer: () => 'unused' },
    async run(ctx) {
      expect(ctx.session.client.getServerVersion()?.version).toMatch(/^\d+\.\d+\.\d+/);
      const tools = (await listPaged(ctx, 'tools/list', 1)).map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(world.tools));
      for (const read of reads ?? []) {
        const result = await ctx.session.callTool(read.tool, read.args);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(textOf(result)).toContain(read.expect);
      }
    },
  });
}
