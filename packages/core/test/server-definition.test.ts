import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NotFound, UserError } from '../src/errors/index.js';
import { RootSet } from '../src/roots/root-set.js';
import { startHttpServer } from '../src/runner/http-lazy.js';
import { httpFactory } from '../src/runner/run.js';
import { createApp, withContext } from '../src/server/index.js';
import { connect, textOf } from '../src/testing/index.js';

/** A context with a handle whose opening and closing are counted. */
interface Shelf {
  readonly books: Map<string, string>;
  readonly opened: number;
}

let created = 0;
let closed = 0;
const { defineTool, definePrompt, defineResource, defineResourceTemplate } = withContext<Shelf>();

const lookUp = defineTool({
  name: 'look_up',
  title: 'Look up',
  description: 'The text of a book.',
  input: z.object({ title: z.string() }),
  annotations: { readOnlyHint: true },
  run({ title }, call) {
    const text = call.context.books.get(title);
    if (text === undefined)
      throw new NotFound(`There is no book "${title}"; list the shelf to see the books.`);
    return { text: `${text} (handle ${call.context.opened})` };
  },
});

const where = defineTool({
  name: 'where',
  title: 'Where',
  description: 'The first allowed directory.',
  input: z.object({}),
  annotations: { readOnlyHint: true },
  run: async (_args, call) => ({ text: (await call.roots()).roots[0]?.path ?? '' }),
});

const book = defineResourceTemplate({
  name: 'book',
  uriTemplate: 'book:///{title}',
  title: 'Book',
  description: 'One book.',
  mimeType: 'text/plain',
  list: ({ context }) => [...context.books.keys()].map((title) => ({ uri: `book:///${title}`, name: title })),
  complete: { title: (_typed, { context }) => context.books.keys() },
  read(uri, { title }, call) {
    const text = typeof title === 'string' ? call.context.books.get(title) : undefined;
    if (text === undefined) throw new NotFound();
    if (text === '') throw new UserError('That book is empty; pick another.');
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
  },
});

const catalogue = defineResource({
  name: 'catalogue',
  uri: 'book:///',
  title: 'Catalogue',
  description: 'Every title.',
  read: (uri, call) => ({ contents: [{ uri: uri.href, text: [...call.context.books.keys()].join('\n') }] }),
});

const summarise = definePrompt({
  name: 'summarise',
  title: 'Summarise',
  description: 'Asks for a summary of one book.',
  args: z.object({ title: z.string() }),
  complete: { title: (_typed, { context }) => context.books.keys() },
  get({ title }, call) {
    const text = call.context.books.get(title);
    if (text === undefined)
      throw new UserError(`There is no book "${title}"; complete the title to see them.`);
    return { messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${text}` } }] };
  },
});

let dir: string;
const makeApp = async () =>
  createApp<Shelf>(
    {
      name: 'shelf',
      version: '1.2.3',
      tools: [lookUp, where],
      resources: [book, catalogue],
      prompts: [summarise],
      context: {
        create: () => {
          created++;
          return {
            opened: created,
            books: new Map([
              ['dune', 'Sand and spice.'],
              ['duel', 'Two swords.'],
              ['blank', ''],
            ]),
          };
        },
        close: async () => {
          // A slow close, so a second close that does not wait for the first would be caught.
          await new Promise((r) => setTimeout(r, 20));
          closed++;
        },
      },
    },
    { roots: await RootSet.create([dir]) },
  );

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-definition-')));
  await writeFile(join(dir, 'a.txt'), 'a');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(['legacy', 'modern'] as const)('one handler shape, %s era', (era) => {
  it('tools, resources, templates and prompts read the typed context; mistakes are sentences', async () => {
    const app = await makeApp();
    const s = await connect(app, { era, roots: [dir] });
    try {
      expect(textOf(await s.callTool('look_up', { title: 'dune' }))).toBe(
        'Sand and spice. (handle ' + app.context.opened + ')',
      );
      const missing = await s.callTool('look_up', { title: 'nope' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toBe('There is no book "nope"; list the shelf to see the books.');
      expect(textOf(await s.callTool('where', {}))).toBe(dir);

      const { resources } = await s.client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual([
        'book:///',
        'book:///blank',
        'book:///duel',
        'book:///dune',
      ]);
      const read = await s.client.readResource({ uri: 'book:///duel' });
      expect(read.contents[0]).toMatchObject({ text: 'Two swords.' });
      // An unknown resource is the protocol's not-found, the same in both eras.
      await expect(s.client.readResource({ uri: 'book:///nope' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        data: { uri: 'book:///nope' },
        // …carrying the resource's own sentence rather than the SDK's default.
        message: expect.stringContaining('Nothing by that name exists.'),
      });
      // A user's mistake in a read is -32602 with its sentence.
      await expect(s.client.readResource({ uri: 'book:///blank' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('That book is empty; pick another.'),
      });

      // Completion sources are ranked and filtered: only what matches what was typed.
      const byTemplate = await s.client.complete({
        ref: { type: 'ref/resource', uri: 'book:///{title}' },
        argument: { name: 'title', value: 'du' },
      });
      expect(byTemplate.completion.values).toEqual(['dune', 'duel']);
      const byPrompt = await s.client.complete({
        ref: { type: 'ref/prompt', name: 'summarise' },
        argument: { name: 'title', value: 'bl' },
      });
      expect(byPrompt.completion.values).toEqual(['blank']);

      const prompt = await s.client.getPrompt({ name: 'summarise', arguments: { title: 'dune' } });
      expect(JSON.stringify(prompt.messages)).toContain('Sand and spice.');
      await expect(
        s.client.getPrompt({ name: 'summarise', arguments: { title: 'x' } }),
      ).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('There is no book "x"; complete the title to see them.'),
      });
    } finally {
      await s.close();
      await app.close();
    }
  });
});

describe('the server context', () => {
  it('is made once per app, shared by every 2026 request instance, and closed exactly once', async () => {
    const before = { created, closed };
    const app = await makeApp();
    const http = await startHttpServer({ factory: httpFactory(app) });
    try {
      // Each 2026 HTTP request gets a fresh server instance; all of them read the same context.
      for (let i = 0; i < 3; i++) {
        const s = await connect(undefined, { era: 'modern', transport: { http: http.url } });
        expect(textOf(await s.callTool('look_up', { title: 'dune' }))).toContain(
          `(handle ${app.context.opened})`,
        );
        await s.close();
      }
      expect(created - before.created).toBe(1);
    } finally {
      await http.close();
      // The runner closes the app on SIGINT, SIGTERM and the end of stdin; a second close (two
      // signals in a row) must not close the handle twice.
      await Promise.all([app.close(), app.close()]);
      await app.close();
    }
    expect(closed - before.closed).toBe(1);
  });

  it('is undefined for a server without one, and the app still closes', async () => {
    const app = createApp({ name: 'bare', version: '0', tools: [] });
    expect(app.context).toBeUndefined();
    await app.close();
  });
});
