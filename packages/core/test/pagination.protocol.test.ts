import { randomBytes } from 'node:crypto';
import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../src/pagination/index.js';
import { installListPagination, pagesItself } from '../src/pagination/list-pagination.js';

const codec = createCursorCodec({ key: randomBytes(32) });
const eras = ['legacy', 'modern'] as const;
type Era = (typeof eras)[number];

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

function buildServer(): McpServer {
  const mcp = new McpServer({ name: 'paging-test', version: '1.0.0' });
  installListPagination(mcp, { codec, pageSize: 2 });
  for (const n of [1, 2, 3, 4, 5]) {
    mcp.registerTool(`tool_${n}`, { description: `Tool number ${n}.` }, () => ({
      content: [{ type: 'text', text: String(n) }],
    }));
    mcp.registerPrompt(`prompt_${n}`, { description: `Prompt number ${n}.` }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: String(n) } }],
    }));
  }
  mcp.registerResource('readme', 'note://readme', { description: 'Static note.' }, (uri) => ({
    contents: [{ uri: uri.href, text: 'readme' }],
  }));
  mcp.registerResource(
    'notes',
    new ResourceTemplate('note://items/{id}', {
      list: () => ({
        resources: ['a', 'b', 'c', 'd'].map((id) => ({ uri: `note://items/${id}`, name: id })),
      }),
    }),
    { description: 'Numbered notes.' },
    (uri) => ({ contents: [{ uri: uri.href, text: uri.href }] }),
  );
  for (const n of [1, 2, 3]) {
    mcp.registerResource(
      `tpl_${n}`,
      new ResourceTemplate(`tpl${n}://{x}`, { list: undefined }),
      { description: `Template ${n}.` },
      (uri) => ({ contents: [{ uri: uri.href, text: '' }] }),
    );
  }
  return mcp;
}

async function connect(era: Era, factory: () => McpServer = buildServer): Promise<Client> {
  const client = new Client(
    { name: 'paging-test-client', version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(() => factory(), { transport: serverSide });
  await client.connect(clientSide);
  open.push(() => client.close());
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

function tamper(cursor: string): string {
  const i = cursor.indexOf('.') + 3;
  return cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
}

describe.each(eras)('list pagination over the wire (%s era)', (era) => {
  it('pages tools/list as [2, 2, 1] and listTools() still sees all 5', async () => {
    const client = await connect(era);
    const sizes: number[] = [];
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await client.request({
        method: 'tools/list',
        params: cursor === undefined ? {} : { cursor },
      });
      sizes.push(result.tools.length);
      names.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    expect(sizes).toEqual([2, 2, 1]);
    expect(names).toEqual(['tool_1', 'tool_2', 'tool_3', 'tool_4', 'tool_5']);

    const all = await client.listTools();
    expect(all.tools.map((t) => t.name)).toEqual(names);
  });

  it('answers a tampered cursor with -32602', async () => {
    const client = await connect(era);
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.nextCursor).toBeTypeOf('string');
    const error = await client
      .request({ method: 'tools/list', params: { cursor: tamper(first.nextCursor ?? '') } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toMatch(/Invalid or expired cursor/);
  });

  it('refuses a tools/list cursor on prompts/list', async () => {
    const client = await connect(era);
    const first = await client.request({ method: 'tools/list', params: {} });
    const error = await client
      .request({ method: 'prompts/list', params: { cursor: first.nextCursor ?? '' } })
      .catch((e: unknown) => e);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it('pages prompts/list and resources/templates/list', async () => {
    const client = await connect(era);
    const p1 = await client.request({ method: 'prompts/list', params: {} });
    expect(p1.prompts.map((p) => p.name)).toEqual(['prompt_1', 'prompt_2']);
    expect((await client.listPrompts()).prompts).toHaveLength(5);

    const t1 = await client.request({ method: 'resources/templates/list', params: {} });
    expect(t1.resourceTemplates).toHaveLength(2);
    const t2 = await client.request({
      method: 'resources/templates/list',
      params: { cursor: t1.nextCursor ?? '' },
    });
    expect(t2.resourceTemplates).toHaveLength(2);
    expect(t2.nextCursor).toBeUndefined();
  });

  it('pages resources/list across static resources and a template list callback', async () => {
    const client = await connect(era);
    const sizes: number[] = [];
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await client.request({
        method: 'resources/list',
        params: cursor === undefined ? {} : { cursor },
      });
      sizes.push(result.resources.length);
      uris.push(...result.resources.map((r) => r.uri));
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    expect(sizes).toEqual([2, 2, 1]);
    expect(uris).toEqual([
      'note://readme',
      'note://items/a',
      'note://items/b',
      'note://items/c',
      'note://items/d',
    ]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(uris);
  });

  it('leaves a handler marked pagesItself unsliced', async () => {
    const client = await connect(era, () => {
      const mcp = new McpServer({ name: 'own-paging', version: '1.0.0' });
      installListPagination(mcp, { codec, pageSize: 2 });
      mcp.server.registerCapabilities({ resources: {} });
      mcp.server.setRequestHandler(
        'resources/list',
        pagesItself(() => ({
          resources: ['x', 'y', 'z'].map((id) => ({ uri: `own://${id}`, name: id })),
        })),
      );
      return mcp;
    });
    const result = await client.request({ method: 'resources/list', params: {} });
    expect(result.resources).toHaveLength(3);
    expect(result.nextCursor).toBeUndefined();
  });
});

describe('installListPagination misuse', () => {
  it('refuses to run after the list handlers exist', () => {
    const mcp = new McpServer({ name: 'late', version: '1.0.0' }, { capabilities: { tools: {} } });
    expect(() => installListPagination(mcp, { codec, pageSize: 2 })).toThrow(/before "tools\/list"/);
  });

  it('refuses to install twice', () => {
    const mcp = new McpServer({ name: 'twice', version: '1.0.0' });
    installListPagination(mcp, { codec, pageSize: 2 });
    expect(() => installListPagination(mcp, { codec, pageSize: 2 })).toThrow(/already/);
  });

  it('refuses a bad page size', () => {
    const mcp = new McpServer({ name: 'size', version: '1.0.0' });
    expect(() => installListPagination(mcp, { codec, pageSize: 0 })).toThrow(RangeError);
  });
});
