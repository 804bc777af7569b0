import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, listTools } from '../src/inspector.js';
import { SERVERS } from '../src/servers.js';

interface ToolsList {
  result?: { tools?: { name: string }[] };
}
interface CallResult {
  result?: { content?: { type: string; text?: string }[]; isError?: boolean };
}

describe.each(SERVERS)('MCP Inspector CLI over stdio: $name', (server) => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists the tools and calls one', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), `mcpkit-inspector-${server.name}-`)));
    const world = await server.world.setup(dir);
    const { args } = world;

    const listed = await listTools(server.bin, args);
    expect(listed.code, listed.stderr).toBe(0);
    const names = ((listed.json as ToolsList).result?.tools ?? []).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(server.world.tools));

    const [{ tool, args: toolArgs, expect: text }] = world.reads;
    const asText = Object.fromEntries(Object.entries(toolArgs).map(([k, v]) => [k, String(v)]));
    const called = await callTool(server.bin, args, world.roots ?? [dir], tool, asText);
    await world.close?.();
    expect(called.code, called.stderr).toBe(0);
    const result = (called.json as CallResult).result;
    expect(result?.isError).toBeFalsy();
    expect(result?.content?.find((c) => c.type === 'text')?.text).toContain(text);
  }, 60_000);
});
