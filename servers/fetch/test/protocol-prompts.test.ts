/**
 * The prompts, in both eras: `fetch(url)` puts the page into the conversation (fenced as
 * untrusted, and into the cache), skips robots.txt as a user's own request while the tools'
 * checker would refuse the page, and turns a failure into a message; a private address stays
 * refused and is never reached. `summarize_page` asks for a summary, focused when asked, and
 * both complete their URL from the pages fetched.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from './support/clients.js';
import { text } from './support/local-server.js';
import { type FetchWorld, fetchWorld, oneSentence, page } from './support/protocol-kit.js';

const routes = {
  '/robots.txt': text('User-agent: *\nDisallow: /\n', 'text/plain'),
  '/article': text(page('An Article', 'The article says hello.')),
  '/other': text(page('Other', 'Another page.')),
  '/missing': (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('nothing here');
  },
};

type PromptText = { role: string; content: { type: string; text: string } };
const messageText = (result: { messages: unknown[] }) => (result.messages[0] as PromptText).content.text;

describe.each(['legacy', 'modern'] as const)('fetch prompts, %s era', (era) => {
  let world: FetchWorld;
  afterEach(() => world.close());

  it('lists fetch and summarize_page with their arguments', async () => {
    world = await fetchWorld(routes);
    const session = await world.connect(era);
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required ?? false])])).toEqual([
      ['fetch', [['url', true]]],
      [
        'summarize_page',
        [
          ['url', true],
          ['focus', false],
        ],
      ],
    ]);
  });

  it('fetch puts the page into the conversation, fenced, without asking robots.txt', async () => {
    world = await fetchWorld(routes);
    const session = await world.connect(era);
    const url = world.url('/article');
    const result = await session.client.getPrompt({ name: 'fetch', arguments: { url } });
    expect(result.description).toBe(`Contents of ${url}`);
    const body = messageText(result);
    expect((result.messages[0] as PromptText).role).toBe('user');
    expect(body).toContain('The article says hello.');
    expect(body).toMatch(/<untrusted-web-content-[0-9a-f]+>/);
    expect(world.server.hits('/robots.txt')).toBe(0);
    // The tools' checker, asked about the same page, refuses it.
    const refused = await rejection(world.app.context.robots!.assertAllowed(url));
    expect(refused.message).toContain('does not allow autonomous fetching');
    // The page is now in the cache, as a resource.
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.name)).toEqual([url]);
  });

  it.each([
    ['a loopback address', (world: FetchWorld) => world.server.url('/article'), /loopback/],
    ['localhost', (world: FetchWorld) => world.server.url('/article', 'localhost'), /localhost/],
    [
      'a name that resolves to this machine',
      (world: FetchWorld) => world.server.url('/article', 'inside.test'),
      /Refused to fetch from 127\.0\.0\.1 .*loopback/,
    ],
  ])('fetch refuses %s in a message and never reaches it', async (_name, target, pattern) => {
    world = await fetchWorld(routes, { dns: { 'inside.test': ['127.0.0.1'] } });
    const session = await world.connect(era);
    const url = target(world);
    const result = await session.client.getPrompt({ name: 'fetch', arguments: { url } });
    expect(result.description).toBe(`Failed to fetch ${url}`);
    expect(messageText(result)).toMatch(pattern);
    expect(oneSentence(messageText(result))).toBe(true);
    expect(world.server.total()).toBe(0);
  });

  it('fetch reports an error status or a bad URL in one sentence', async () => {
    world = await fetchWorld(routes);
    const session = await world.connect(era);
    const missing = await session.client.getPrompt({
      name: 'fetch',
      arguments: { url: world.url('/missing') },
    });
    expect(messageText(missing)).toMatch(/answered 404/);
    const bad = await session.client.getPrompt({ name: 'fetch', arguments: { url: 'not a url' } });
    expect(bad.description).toBe('Failed to fetch not a url');
    expect(messageText(bad)).toMatch(/not a valid URL/);
    expect(oneSentence(messageText(bad))).toBe(true);
  });

  it('summarize_page asks for a focused summary of the page', async () => {
    world = await fetchWorld(routes);
    const session = await world.connect(era);
    const url = world.url('/article');
    const result = await session.client.getPrompt({
      name: 'summarize_page',
      arguments: { url, focus: 'action items' },
    });
    const body = messageText(result);
    expect(body).toMatch(/^Summarize the web page/);
    expect(body).toContain('Concentrate on action items.');
    expect(body).toContain('The article says hello.');
    expect(world.server.hits('/robots.txt')).toBe(0);
    const error = await rejection(
      session.client.getPrompt({ name: 'summarize_page', arguments: { url: world.server.url('/article') } }),
    );
    expect(error.message).toMatch(/loopback/);
    expect(oneSentence(error.message)).toBe(true);
    expect(world.server.hits('/article')).toBe(1);
  });

  it('completes the URL with the pages fetched, and the focus', async () => {
    world = await fetchWorld(routes);
    const session = await world.connect(era);
    const article = await world.fill('/article');
    const other = await world.fill('/other');
    for (const name of ['fetch', 'summarize_page']) {
      const ref = { type: 'ref/prompt' as const, name };
      const urls = await session.client.complete({ ref, argument: { name: 'url', value: '' } });
      expect(urls.completion.values).toEqual([other, article]);
      const typed = await session.client.complete({ ref, argument: { name: 'url', value: 'artic' } });
      expect(typed.completion.values).toEqual([article]);
    }
    const focus = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'summarize_page' },
      argument: { name: 'focus', value: 'act' },
    });
    expect(focus.completion.values).toEqual(['action items']);
  });
});
