/**
 * Drop-in check: every call in official-calls.ts (the official filesystem server's tools with its
 * own argument shapes, happy paths) fits the official server's published input schemas, succeeds
 * on the official server itself, and succeeds on this one in one call, in both eras, with nothing
 * asked of the user and no confirm argument. A second pass reaches the allowed directory through
 * a symbolic link (as macOS's /tmp is) and checks that no answer shows the real path behind it.
 */
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { connect, textOf } from '@mcpkit/core/testing';
import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { OFFICIAL_CALLS, officialBin, seedOfficialWorld } from './official-calls.js';

const BIN = officialBin();

/** A fresh temporary world: `real/` seeded, and `link` pointing at it. */
async function freshWorld() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-fs-official-')));
  const real = join(base, 'real');
  await mkdir(real);
  await seedOfficialWorld(real);
  await symlink(real, join(base, 'link'));
  return { base, real, link: join(base, 'link'), cleanup: () => rm(base, { recursive: true, force: true }) };
}

// The official server is a devDependency of this package, so a copy of this folder has it too.
describe('the official server', () => {
  let officialTools: Tool[] = [];
  let w: Awaited<ReturnType<typeof freshWorld>>;
  beforeAll(async () => {
    w = await freshWorld();
  });
  afterAll(() => w.cleanup());

  it('accepts every replayed call: each fits its schema and succeeds there', async () => {
    const session = await connect(undefined, {
      era: 'legacy',
      transport: { stdio: { command: process.execPath, args: [BIN, w.real], cwd: w.real } },
    });
    try {
      officialTools = (await session.client.listTools()).tools;
      const byName = new Map(officialTools.map((t) => [t.name, t]));
      for (const step of OFFICIAL_CALLS) {
        const tool = byName.get(step.tool);
        expect(tool, step.tool).toBeDefined();
        const args = step.args(w.real);
        const properties = Object.keys(tool?.inputSchema.properties ?? {});
        for (const key of Object.keys(args)) expect(properties, `${step.tool}.${key}`).toContain(key);
        for (const key of tool?.inputSchema.required ?? []) expect(Object.keys(args)).toContain(key);
        const result = await session.callTool(step.tool, args);
        expect(result.isError, `${step.tool} ${JSON.stringify(args)}: ${textOf(result)}`).toBeFalsy();
      }
    } finally {
      await session.close();
    }
    // Every official tool is replayed at least once.
    const replayed = new Set(OFFICIAL_CALLS.map((s) => s.tool));
    expect(officialTools.map((t) => t.name).filter((name) => !replayed.has(name))).toEqual([]);
  });

  it('has no tool, argument or destructive annotation that this server lacks', async () => {
    expect(officialTools.length).toBeGreaterThan(0);
    const app = createFilesystemApp({ roots: await RootSet.create([w.real]) });
    const session = await connect(app, { era: 'legacy' });
    try {
      const ours = new Map((await session.client.listTools()).tools.map((t) => [t.name, t]));
      for (const official of officialTools) {
        const mine = ours.get(official.name);
        expect(mine, official.name).toBeDefined();
        const mineArgs = Object.keys(mine?.inputSchema.properties ?? {});
        expect(mineArgs).toEqual(expect.arrayContaining(Object.keys(official.inputSchema.properties ?? {})));
        // Nothing the official does not require is required here.
        for (const key of mine?.inputSchema.required ?? []) {
          expect(official.inputSchema.required ?? [], `${official.name}.${key}`).toContain(key);
        }
        // A host asks before what the official marks destructive, and nothing it marks read-only writes.
        for (const hint of ['readOnlyHint', 'destructiveHint'] as const) {
          const theirs = official.annotations?.[hint];
          if (theirs !== undefined)
            expect(mine?.annotations?.[hint], `${official.name} ${hint}`).toBe(theirs);
        }
      }
    } finally {
      await session.close();
      await app.close();
    }
  });
});

describe.each([
  ['legacy', 'a client that can ask'],
  ['legacy', 'a client that cannot ask'],
  ['modern', 'a client that can ask'],
  ['modern', 'a client that cannot ask'],
] as const)('this server, %s era, %s', (era, client) => {
  for (const via of ['the real path', 'a link to the allowed directory'] as const) {
    it(`runs every official call in one call, reached through ${via}`, async () => {
      const w = await freshWorld();
      const dir = via === 'the real path' ? w.real : w.link;
      const app = createFilesystemApp({ roots: await RootSet.create([dir]) });
      const asked: string[] = [];
      const session = await connect(app, {
        era,
        ...(client === 'a client that can ask'
          ? {
              elicitation: (params: { message: string }) => {
                asked.push(params.message);
                return { action: 'decline' as const };
              },
            }
          : {}),
      });
      try {
        for (const step of OFFICIAL_CALLS) {
          const args = step.args(dir);
          const result = await session.callTool(step.tool, args);
          const text = textOf(result);
          expect(result.isError, `${step.tool} ${JSON.stringify(args)}: ${text}`).toBeFalsy();
          await step.check?.(dir, text, result);
          // The real path behind the link is shown only where the official shows it too: the list
          // of allowed directories.
          if (dir === w.link && step.tool !== 'list_allowed_directories') {
            const texts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
            for (const t of texts) expect(t, step.tool).not.toContain(w.real);
            expect(JSON.stringify(result.structuredContent ?? {}), step.tool).not.toContain(w.real);
          }
        }
        expect(asked).toEqual([]);
      } finally {
        await session.close();
        await app.close();
        await w.cleanup();
      }
    });
  }
});
