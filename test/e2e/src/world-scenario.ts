/**
 * The end-to-end run every server gets from its test world: the bin on that world, listing the
 * tools the world names and answering its two read calls.
 */
import {
  defineScenario,
  listPaged,
  type Scenario,
  type TestWorld,
  textOf,
  type WorldInstance,
} from '@mcpkit/core/testing';
import { expect } from 'vitest';

export function worldScenario(world: TestWorld): Scenario<WorldInstance> {
  return defineScenario({
    setup: (dir) => world.setup(dir),
    model: { answer: () => 'unused' },
    async run(ctx) {
      expect(ctx.session.client.getServerVersion()?.version).toMatch(/^\d+\.\d+\.\d+/);
      const tools = (await listPaged(ctx, 'tools/list', 1)).map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(world.tools));
      for (const read of ctx.fixture.reads) {
        const result = await ctx.session.callTool(read.tool, read.args);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(textOf(result)).toContain(read.expect);
      }
    },
  });
}
