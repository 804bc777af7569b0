import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { RootSet } from '../src/roots/root-set.js';
import {
  createApp,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  withContext,
} from '../src/server/index.js';
import { strictInput } from '../src/server/tool-run.js';
import type { WatchFactory } from '../src/subscriptions/types.js';
import { connect, textOf } from '../src/testing/index.js';

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-edges-')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a resource's watch", () => {
  it('is asked only for its own URIs: its URI, or what its template matches', async () => {
    const asked: string[] = [];
    const watch = (uri: string): WatchFactory => {
      asked.push(uri);
      return () => ({ close() {} });
    };
    const fixed = defineResource({
      name: 'fixed',
      uri: 'demo:///fixed',
      title: 'Fixed',
      description: 'One resource.',
      read: (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }),
      watch,
    });
    const item = defineResourceTemplate({
      name: 'item',
      uriTemplate: 'demo:///items/{id}',
      title: 'Item',
      description: 'Many resources.',
      read: (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }),
      watch,
    });
    const app = createApp({ name: 'w', version: '0', resources: [fixed, item] });
    const s = await connect(app, { era: 'legacy' });
    try {
      await s.client.subscribeResource({ uri: 'demo:///fixed' });
      await s.client.subscribeResource({ uri: 'demo:///items/7' });
      // Nobody's URI: no watch is ever asked for it.
      await s.client.subscribeResource({ uri: 'file:///etc/shadow' }).catch(() => undefined);
      expect(asked).toEqual(['demo:///fixed', 'demo:///items/7']);
    } finally {
      await s.close();
      await app.close();
    }
  });
});

describe('tool inputs', () => {
  it('refuse a zod schema that cannot be made strict', () => {
    const plain = z.object({ confirm: z.boolean() });
    expect(() => strictInput(plain)).not.toThrow();
    expect(() => strictInput(plain.transform((v) => v) as never)).toThrow(/must be z\.object/);
    const union = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') })]);
    expect(() => strictInput(union as never)).toThrow(/must be z\.object/);
  });
});

describe('prompt arguments with completions', () => {
  const range = definePrompt({
    name: 'range',
    title: 'Range',
    description: 'A range of letters.',
    args: z
      .object({ from: z.string(), to: z.string().optional().describe('The last letter') })
      .refine((v) => v.to === undefined || v.from <= v.to, 'from must come before to'),
    complete: { from: () => ['a', 'b'], to: () => ['y', 'z'] },
    get: ({ from, to }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `${from}-${to}` } }],
    }),
  });

  it.each(['legacy', 'modern'] as const)(
    'keep the schema as written and complete optional ones (%s)',
    async (era) => {
      const app = createApp({ name: 'p', version: '0', prompts: [range] });
      const s = await connect(app, { era });
      try {
        await expect(
          s.client.getPrompt({ name: 'range', arguments: { from: 'z', to: 'a' } }),
        ).rejects.toMatchObject({
          code: ProtocolErrorCode.InvalidParams,
        });
        const optional = await s.client.complete({
          ref: { type: 'ref/prompt', name: 'range' },
          argument: { name: 'to', value: 'z' },
        });
        expect(optional.completion.values).toEqual(['z']);
        const listed = (await s.client.listPrompts()).prompts[0]?.arguments;
        expect(listed).toEqual(
          expect.arrayContaining([{ name: 'to', description: 'The last letter', required: false }]),
        );
      } finally {
        await s.close();
        await app.close();
      }
    },
  );
});

describe('listings and completions that fail', () => {
  const broken = defineResourceTemplate({
    name: 'broken',
    uriTemplate: 'demo:///broken/{id}',
    title: 'Broken',
    description: 'Its listing and completion fail.',
    list: () => {
      throw new Error(`ENOENT: no such file or directory, scandir '${dir}/gone'`);
    },
    complete: {
      id: () => {
        throw new Error(`EACCES: permission denied, scandir '${dir}/gone'`);
      },
    },
    read: (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }),
  });

  it('answer without a host path: an internal error for the list, nothing for the completion', async () => {
    const app = createApp({ name: 'b', version: '0', resources: [broken] });
    const s = await connect(app, { era: 'legacy' });
    try {
      const listed = await s.client.listResources().then(
        () => undefined,
        (error: { code: number; message: string }) => error,
      );
      expect(listed?.code).toBe(ProtocolErrorCode.InternalError);
      expect(listed?.message).not.toContain(dir);
      const completed = await s.client.complete({
        ref: { type: 'ref/resource', uri: 'demo:///broken/{id}' },
        argument: { name: 'id', value: '' },
      });
      expect(completed.completion.values).toEqual([]);
    } finally {
      await s.close();
      await app.close();
    }
  });
});

describe('closing the app while a call runs', () => {
  it('aborts the call, waits for it, then closes the context; no instance is made afterwards', async () => {
    const journal: string[] = [];
    const { defineTool: defineWith } = withContext<{ open: boolean }>();
    const slow = defineWith({
      name: 'slow',
      title: 'Slow',
      description: 'Waits until cancelled.',
      input: z.object({}),
      annotations: { readOnlyHint: true },
      async run(_args, call) {
        journal.push('started');
        await sleep(10_000, undefined, { signal: call.signal }).catch(() => journal.push('aborted'));
        journal.push(call.context.open ? 'context still open' : 'context already closed');
        return { text: 'done' };
      },
    });
    const context = { open: true };
    const app = createApp(
      {
        name: 'c',
        version: '0',
        tools: [slow],
        context: {
          create: () => context,
          close: (c) => {
            c.open = false;
            journal.push('context closed');
          },
        },
      },
      { roots: await RootSet.create([dir]) },
    );
    const s = await connect(app, { era: 'modern' });
    const call = s.callTool('slow', {}).catch(() => undefined);
    while (!journal.includes('started')) await sleep(5);
    await app.close();
    expect(journal).toEqual(['started', 'aborted', 'context still open', 'context closed']);
    expect(() => app.factory('request')({ era: 'modern' } as never)).toThrow(/shutting down/);
    await call;
    await s.close();
  });
});

// The refusals below are checked by the package's typecheck (`@ts-expect-error` fails it when a
// line compiles); the test shows what each refused server would have done at run time.
describe('the types', () => {
  it('tie handlers to the context they read', async () => {
    const big = withContext<{ db: string; dir: string }>();
    const small = withContext<{ dir: string }>();
    const about = { title: 'T', description: 'T.', input: z.object({}), annotations: { readOnlyHint: true } };
    const needsDb = big.defineTool({ ...about, name: 'db', run: (_a, call) => ({ text: call.context.db }) });
    const needsDir = small.defineTool({
      ...about,
      name: 'dir',
      run: (_a, call) => ({ text: call.context.dir }),
    });
    const apps = {
      wider: createApp<{ dir: string }>({
        name: 'x',
        version: '0',
        // @ts-expect-error: the tool reads a database this server's context does not have.
        tools: [needsDb],
        context: { create: () => ({ dir }) },
      }),
      // @ts-expect-error: the tool reads a context, so the server must say how to make one.
      missing: createApp({ name: 'x', version: '0', tools: [needsDir] }),
      // A handler that needs less than the context holds is fine.
      narrower: createApp({
        name: 'x',
        version: '0',
        tools: [needsDir],
        context: { create: () => ({ dir, db: 'x' }) },
      }),
      // A server without a context takes handlers that read none.
      none: createApp({
        name: 'x',
        version: '0',
        tools: [defineTool({ ...about, name: 'n', run: () => ({ text: 'n' }) })],
      }),
    };
    const call = async (app: (typeof apps)[keyof typeof apps], tool: string) => {
      const s = await connect(app, { era: 'modern' });
      try {
        return await s.callTool(tool, {});
      } finally {
        await s.close();
        await app.close();
      }
    };
    expect(textOf(await call(apps.narrower, 'dir'))).toBe(dir);
    expect(textOf(await call(apps.none, 'n'))).toBe('n');
    // What the types refuse fails at run time: a context without the field, or no context at all.
    expect((await call(apps.wider, 'db')).isError).toBe(true);
    expect((await call(apps.missing, 'dir')).isError).toBe(true);
  });
});
