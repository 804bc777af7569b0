/**
 * The app's read-only modes, both eras: `false` offers every tool; `true` (change nothing) offers
 * only read-only tools; `'data'` (leave the server's data alone) offers the read-only tools and
 * those marked `writesOutsideData`, whose annotations stay as written. A hidden tool cannot be
 * called: its handler never runs.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createApp, defineTool } from '../src/server/index.js';
import { connect, textOf } from '../src/testing/index.js';

/** Names of the tools whose handler ran. */
const ran: string[] = [];

const tool = (name: string, readOnlyHint: boolean, extra: { writesOutsideData?: boolean } = {}) =>
  defineTool({
    name,
    title: name,
    description: `The ${name} tool.`,
    input: z.object({}),
    annotations: { readOnlyHint, destructiveHint: !readOnlyHint },
    run: () => {
      ran.push(name);
      return { text: `${name} ran` };
    },
    ...extra,
  });

const TOOLS = [
  tool('look', true),
  tool('change_data', false),
  tool('save_file', false, { writesOutsideData: true }),
  // Read-only tools need no mark; one that has it is offered like any read-only tool.
  tool('peek', true, { writesOutsideData: true }),
];

const MODES = [
  { readOnly: false, offered: ['change_data', 'look', 'peek', 'save_file'] },
  { readOnly: 'data', offered: ['look', 'peek', 'save_file'] },
  { readOnly: true, offered: ['look', 'peek'] },
] as const;

describe.each(['legacy', 'modern'] as const)('read-only modes, %s era', (era) => {
  it.each(MODES)('readOnly: $readOnly offers $offered', async ({ readOnly, offered }) => {
    const app = createApp({ name: 't', version: '0', tools: TOOLS }, { readOnly });
    const session = await connect(app, { era });
    try {
      expect(app.readOnly).toBe(readOnly);
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(offered);
      // Offered in a read-only mode or not, a tool's annotations are what it declared.
      const saveFile = tools.find((t) => t.name === 'save_file');
      if (saveFile)
        expect(saveFile.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });

      ran.length = 0;
      for (const { name } of TOOLS) {
        const answer = await session.callTool(name, {}).then(
          (result) => (result.isError ? `error: ${textOf(result)}` : textOf(result)),
          (error: Error) => `error: ${error.message}`,
        );
        if (offered.includes(name as never)) expect(answer).toBe(`${name} ran`);
        else expect(answer).toMatch(new RegExp(`^error: .*${name}`));
      }
      expect(ran.sort()).toEqual(offered);
    } finally {
      await session.close();
      await app.close();
    }
  });
});

it('defaults to offering every tool', async () => {
  const app = createApp({ name: 't', version: '0', tools: TOOLS });
  expect(app.readOnly).toBe(false);
  await app.close();
});
