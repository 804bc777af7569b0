import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { completable, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type CompletionContext, completer } from '../src/completion/index.js';

const BRANCHES = ['main', 'develop', 'feature/Main-menu', 'release/1.0', 'hotfix/remain'];
const FILES: Record<string, string[]> = {
  main: ['README.md', 'src/index.ts', 'src/readme.ts'],
  develop: ['README.md', 'src/new.ts'],
};

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

function buildServer(): McpServer {
  const mcp = new McpServer({ name: 'completion-test', version: '1.0.0' });
  mcp.registerPrompt(
    'review',
    {
      description: 'Review a file on a branch.',
      argsSchema: z.object({
        branch: completable(
          z.string(),
          completer(() => BRANCHES),
        ),
        file: completable(
          z.string(),
          completer((_value, context?: CompletionContext) => FILES[context?.arguments?.branch ?? ''] ?? []),
        ),
      }),
    },
    ({ branch, file }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `${branch}:${file}` } }],
    }),
  );
  mcp.registerResource(
    'items',
    new ResourceTemplate('item://{id}', {
      list: undefined,
      complete: { id: completer(async () => Array.from({ length: 150 }, (_, i) => `id-${i}`)) },
    }),
    { description: 'Items.' },
    (uri) => ({ contents: [{ uri: uri.href, text: uri.href }] }),
  );
  return mcp;
}

async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: 'completion-client', version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(() => buildServer(), { transport: serverSide });
  await client.connect(clientSide);
  open.push(() => client.close());
  return client;
}

describe.each(['legacy', 'modern'] as const)('completion over the wire (%s era)', (era) => {
  it('ranks prompt argument completions', async () => {
    const client = await connect(era);
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'branch', value: 'main' },
    });
    expect(result.completion.values).toEqual(['main', 'feature/Main-menu', 'hotfix/remain']);
    expect(result.completion.total).toBe(3);
  });

  it('uses arguments already chosen', async () => {
    const client = await connect(era);
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'file', value: 'read' },
      context: { arguments: { branch: 'main' } },
    });
    expect(result.completion.values).toEqual(['README.md', 'src/readme.ts']);
    const other = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'file', value: 'src' },
      context: { arguments: { branch: 'develop' } },
    });
    expect(other.completion.values).toEqual(['src/new.ts']);
  });

  it('caps template completions at 100 and reports the real total', async () => {
    const client = await connect(era);
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'item://{id}' },
      argument: { name: 'id', value: 'id-1' },
    });
    // id-1, id-10..id-19, id-100..id-149: 1 + 10 + 50 = 61 matches
    expect(result.completion.values[0]).toBe('id-1');
    expect(result.completion.total).toBe(61);
    expect(result.completion.hasMore).toBe(false);

    const all = await client.complete({
      ref: { type: 'ref/resource', uri: 'item://{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(all.completion.values).toHaveLength(100);
    expect(all.completion.total).toBe(150);
    expect(all.completion.hasMore).toBe(true);
  });
});

describe('completer', () => {
  it('ranks, dedupes and passes the context through', async () => {
    const seen: Array<CompletionContext | undefined> = [];
    const complete = completer((_value, context) => {
      seen.push(context);
      return ['beta', 'Alpha', 'alpha', 'alpha', 'gamma-alpha'];
    });
    expect(await complete('alpha', { arguments: { x: '1' } })).toEqual(['alpha', 'Alpha', 'gamma-alpha']);
    expect(seen).toEqual([{ arguments: { x: '1' } }]);
  });

  it('honours an explicit max', async () => {
    const complete = completer(() => ['a1', 'a2', 'a3'], { max: 2 });
    expect(await complete('a')).toEqual(['a1', 'a2']);
  });

  it('lets the source fail loudly', async () => {
    const complete = completer(async () => {
      throw new Error('git not found');
    });
    await expect(complete('x')).rejects.toThrow('git not found');
  });
});
