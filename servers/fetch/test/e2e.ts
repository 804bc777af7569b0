/**
 * The fetch server's every-feature scenario: one session that touches each tool, the cache
 * resources and their template, completion, both prompts, sampling with tools (research), a
 * subscription, progress, logging and cancellation, and a tool run as a 2026 task. The
 * repository's end-to-end layer runs it on the built bin over stdio and HTTP, in both eras.
 *
 * The web is a small HTTP server on 127.0.0.1 that the setup starts (and the fixture's `close`
 * stops), reached because the bin is told `--allow-host 127.0.0.1`. Nothing goes further.
 *
 * The bin runs with a ten-minute `--total-timeout`, so a download that ends before the test's
 * timeout was ended by a cancel: the cancel steps require the site to see the download's socket
 * closed by the bin, for a cancelled call and (2026, HTTP) for a cancelled task.
 *
 * Elicitation is the one feature not here: the fetch server never asks the user anything. Every
 * tool only reads, and the one choice a user could make (fetching a page robots.txt disallows)
 * belongs to the operator (`--ignore-robots-txt`) or to the user-initiated prompts, not to a
 * question the model could trigger and talk the user into.
 */
import type { ServerResponse } from 'node:http';
import {
  callWithProgress,
  defineScenario,
  expectLogMessage,
  expectResourceUpdated,
  expectToolError,
  httpTaskWire,
  listPaged,
  type ScenarioContext,
  type ScenarioFixture,
  type TaskStep,
  textOf,
  untilTask,
} from '@mcpkit/core/testing';
import { expect } from 'vitest';
import { type LocalServer, startServer, text } from './support/local-server.js';

const TOOLS = ['fetch', 'fetch_image', 'fetch_links', 'research'];
const TEMPLATE = 'fetch://cache/{url}';

/** Bytes of the large download, sent in chunks with pauses so progress is reported on the way. */
const LARGE_BYTES = 2 * 1024 * 1024;
const LARGE_CHUNKS = 16;

/** A 320×240 GIF: its header is all fetch_image reads to size it. */
const GIF = Buffer.from([...Buffer.from('GIF89a'), 0x40, 0x01, 0xf0, 0x00, 0, 0, 0, 0x3b]);

interface FetchFixture extends ScenarioFixture {
  site: LocalServer;
  /** `http://127.0.0.1:port/path` on the local site. */
  url(path: string): string;
  /** Changes the text of /watched, as its publisher would. */
  edit(n: number): void;
  /** Downloads of /slow the site has started. */
  slowOpened(): number;
  /** Downloads of /slow that ended because the client went away (the site never ends one). */
  slowClosed(): number;
}

/** The cache resource URI of a fetched URL, as the server names it. */
function cacheUri(url: string): string {
  return `fetch://cache/${encodeURIComponent(url)}`;
}

function page(title: string, body: string, extra = ''): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p>${extra}</article></body></html>`;
}

/** Sends `total` bytes in `chunks` pieces, a short pause between them. */
function chunked(res: ServerResponse, total: number, chunks: number): void {
  const size = total / chunks;
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(total) });
  let sent = 0;
  const next = () => {
    if (res.destroyed) return;
    res.write(Buffer.alloc(size, 'line of text\n'));
    sent++;
    if (sent === chunks) res.end();
    else setTimeout(next, 20);
  };
  next();
}

/*
 * The site of the run under way. The scripted model names the link it reads by its full URL, and
 * the port is known only once the setup has started the site; the matrix runs one case at a time,
 * so the model reads it from here. The task step is handed only the run's directory.
 */
let current: FetchFixture | undefined;
const byDir = new Map<string, FetchFixture>();

async function startSite(dir: string): Promise<FetchFixture> {
  let watched = 'The watched page says nothing new yet.';
  let slowOpened = 0;
  let slowClosed = 0;
  const site = await startServer({
    '/robots.txt': text('User-agent: *\nDisallow: /private\n', 'text/plain'),
    '/alpha': text(page('Alpha', 'The alpha page is about apples, which grow on trees.')),
    '/beta': text(page('Beta', 'The beta page is about bananas, which grow in bunches.')),
    '/index': text(
      page(
        'Index',
        'The index of the local site, which lists its pages for readers.',
        '<ul><li><a href="/alpha">Alpha, on apples</a></li><li><a href="/beta">Beta, on bananas</a></li></ul>',
      ),
    ),
    '/private': text(page('Private', 'Robots may not read this page, but a user may.')),
    '/watched': (_req, res) => text(page('Watched', watched))(_req, res),
    '/pixel.gif': text(GIF, 'image/gif'),
    '/large': (_req, res) => chunked(res, LARGE_BYTES, LARGE_CHUNKS),
    // Headers at once, then a byte every 100 ms for as long as the client listens.
    '/slow': (_req, res) => {
      slowOpened++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => {
        clearInterval(timer);
        slowClosed++;
      });
    },
  });
  const fixture: FetchFixture = {
    // A short revalidation interval, so a subscription hears a change within a second; a total
    // deadline far past the test's timeout, so only a cancel can end a download in time.
    args: ['--allow-host', '127.0.0.1', '--revalidate-interval', '0.5', '--total-timeout', '600'],
    site,
    url: (path) => site.url(path),
    edit: (n) => {
      watched = `The watched page changed, edit number ${n}.`;
    },
    slowOpened: () => slowOpened,
    slowClosed: () => slowClosed,
    close: async () => {
      byDir.delete(dir);
      if (current === fixture) current = undefined;
      await site.close();
    },
  };
  byDir.set(dir, fixture);
  current = fixture;
  return fixture;
}

/** Polls until `condition` holds. No deadline of its own: one that never holds is the test timeout's. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * Runs `cancel`, which starts a download of /slow, waits with `started` until the site has it, and
 * cancels it; then waits until the site has seen every /slow download it started closed by the
 * bin. The site never ends one and the bin's total deadline is ten minutes, so only the cancel can
 * close it before the test's timeout.
 */
async function expectDownloadStops(
  fixture: FetchFixture,
  cancel: (started: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const opened = fixture.slowOpened();
  await cancel(() => until(() => fixture.slowOpened() > opened));
  await until(() => fixture.slowClosed() === fixture.slowOpened());
}

async function everyFeature(ctx: ScenarioContext<FetchFixture>): Promise<void> {
  const { session, model, elicitor, fixture } = ctx;
  const { client } = session;
  const { site, url } = fixture;

  // Tools: four of them, in two pages.
  const tools = await listPaged(ctx, 'tools/list', 2);
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);

  // fetch: HTML as Markdown, fenced as untrusted web content.
  const alpha = textOf(await session.callTool('fetch', { url: url('/alpha') }));
  expect(alpha).toContain('about apples');
  expect(alpha).toMatch(/<untrusted-web-content-[0-9a-f]{16}>/);

  // Bad input fails with one sentence, and nothing of the fixture's directory.
  const ftp = await session.callTool('fetch', { url: 'ftp://files.example/report.txt' });
  expectToolError(ftp, ctx.dir);
  expect(textOf(ftp)).toMatch(/only http and https URLs are fetched/);
  expectToolError(await session.callTool('fetch', { url: url('/alpha'), max_length: 0 }), ctx.dir);

  // Private addresses stay out of reach: only 127.0.0.1 itself was allowed, not what names it.
  const metadata = await session.callTool('fetch', { url: 'http://169.254.169.254/latest/meta-data/' });
  expectToolError(metadata, ctx.dir);
  expect(textOf(metadata)).toMatch(
    /^Refused to fetch from 169\.254\.169\.254: it is a link-local \(cloud metadata\) address/,
  );
  const before = site.total();
  const named = await session.callTool('fetch', { url: `http://localhost:${site.port}/alpha` });
  expectToolError(named, ctx.dir);
  expect(textOf(named)).toMatch(/names this machine/);
  expect(site.total(), 'the refused fetch reached the site').toBe(before);

  // robots.txt binds the tools: /private is refused without being requested.
  const robots = await session.callTool('fetch', { url: url('/private') });
  expectToolError(robots, ctx.dir);
  expect(textOf(robots)).toMatch(/robots\.txt .* does not allow autonomous fetching/);
  expect(site.hits('/private')).toBe(0);

  // fetch_links and fetch_image.
  const links = await session.callTool('fetch_links', { url: url('/index'), same_origin: true });
  expect((links.structuredContent as { links: { url: string }[] }).links.map((l) => l.url)).toEqual([
    url('/alpha'),
    url('/beta'),
  ]);
  const image = await session.callTool('fetch_image', { url: url('/pixel.gif') });
  expect(textOf(image)).toContain('image/gif, 320×240 pixels');
  expect(image.content).toContainEqual({
    type: 'image',
    mimeType: 'image/gif',
    data: GIF.toString('base64'),
  });

  // Sampling with tools: the model reads a same-site link of the start page, then answers.
  const research = await session.callTool('research', { url: url('/index'), question: 'Which fruit?' });
  expect(research.isError, textOf(research)).toBeFalsy();
  expect(research.structuredContent).toEqual({
    answer: 'Apples, says the alpha page.',
    urls: [url('/index'), url('/alpha')],
    model: 'scripted',
    sampled: true,
  });
  expect(model.requests.length).toBe(2);
  expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['fetch']);
  const round = JSON.stringify(model.requests[1]?.messages);
  expect(round).toContain('tool_result');
  expect(round).toContain('about apples');

  // Resources: every fetched page is cached and listed (in pages), the template too, and a read
  // gives the page from the cache without asking the site again.
  expect(textOf(await session.callTool('fetch', { url: url('/beta') }))).toContain('about bananas');
  const resources = (await listPaged(ctx, 'resources/list', 2)).map((r) => r.uri);
  expect(resources).toEqual(
    expect.arrayContaining([cacheUri(url('/alpha')), cacheUri(url('/beta')), cacheUri(url('/index'))]),
  );
  const templates = await listPaged(ctx, 'resources/templates/list', 1);
  expect(templates.map((t) => t.uriTemplate)).toEqual([TEMPLATE]);
  const hits = site.hits('/alpha');
  const read = await client.readResource({ uri: cacheUri(url('/alpha')) });
  expect(read.contents[0]).toMatchObject({
    uri: cacheUri(url('/alpha')),
    mimeType: 'text/markdown',
    text: expect.stringContaining('about apples'),
  });
  expect(site.hits('/alpha')).toBe(hits);

  // Completion: fetched URLs for the template's variable and for a prompt's argument.
  const byTemplate = await client.complete({
    ref: { type: 'ref/resource', uri: TEMPLATE },
    argument: { name: 'url', value: url('/al') },
  });
  expect(byTemplate.completion.values).toContain(url('/alpha'));
  const byPrompt = await client.complete({
    ref: { type: 'ref/prompt', name: 'summarize_page' },
    argument: { name: 'url', value: url('/be') },
  });
  expect(byPrompt.completion.values).toContain(url('/beta'));
  const focus = await client.complete({
    ref: { type: 'ref/prompt', name: 'summarize_page' },
    argument: { name: 'focus', value: 'key' },
  });
  expect(focus.completion.values).toContain('key points');

  // Prompts: chosen by the user, so robots.txt is not consulted (as the official server does).
  expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['fetch', 'summarize_page']);
  const fetched = await client.getPrompt({ name: 'fetch', arguments: { url: url('/private') } });
  expect(JSON.stringify(fetched.messages)).toContain('Robots may not read this page, but a user may.');
  const summary = await client.getPrompt({
    name: 'summarize_page',
    arguments: { url: url('/beta'), focus: 'key points' },
  });
  expect(JSON.stringify(summary.messages)).toMatch(/Summarize the web page .*Concentrate on key points/);
  expect(JSON.stringify(summary.messages)).toContain('about bananas');

  // Subscription: the cached page is revalidated every half second; a change on the site
  // reaches the client as resources/updated.
  expect(textOf(await session.callTool('fetch', { url: url('/watched') }))).toContain('nothing new');
  await expectResourceUpdated(ctx, cacheUri(url('/watched')), async (n) => fixture.edit(n));

  // Progress: bytes received of the declared length, while a large download comes in.
  const { result, reports } = await callWithProgress(ctx, 'fetch', { url: url('/large') });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(textOf(result)).toContain('Content type text/plain');
  expect(reports.length).toBeGreaterThan(0);
  expect(reports.every((r) => r.total === LARGE_BYTES && r.progress <= LARGE_BYTES)).toBe(true);

  // Logging by the era's rule: the origin and size of what was fetched, never its path.
  const log = await expectLogMessage(ctx, 'fetch', { url: url('/beta') });
  expect(JSON.stringify(log.params)).toContain(`bytes from ${new URL(url('/')).origin}`);

  // Cancellation: a download that trickles a byte every 100 ms stops when cancelled, and the
  // site sees its connection closed: the download itself ended, not only the client's wait.
  await expectDownloadStops(fixture, async (started) => {
    const controller = new AbortController();
    const call = session.callTool('fetch', { url: url('/slow') }, { signal: controller.signal });
    await started();
    controller.abort();
    await expect(call, 'the cancelled call answered with a result').rejects.toThrow();
    // The cancelled work does not hold the server.
    await client.listTools();
  });
  // The same for a task (2026, over HTTP): tasks/cancel ends the download the task was making.
  if (ctx.era === 'modern' && ctx.url) {
    const wire = httpTaskWire(ctx.url);
    await expectDownloadStops(fixture, async (started) => {
      const task = await wire.request('tools/call', { name: 'fetch', arguments: { url: url('/slow') } });
      expect(task.resultType).toBe('task');
      await started();
      await wire.request('tasks/cancel', { taskId: task.taskId });
      const after = await untilTask(wire, task.taskId, 'cancelled');
      expect(after.status).toBe('cancelled');
      expect(after.result).toBeUndefined();
    });
  }

  // Elicitation: nothing in this server asks the user (see the header).
  expect(elicitor.asked).toEqual([]);
}

export const scenario = defineScenario<FetchFixture>({
  setup: startSite,
  model: {
    get toolCalls() {
      return current ? [{ name: 'fetch', input: { url: current.url('/alpha') } }] : [];
    },
    answer: () => 'Apples, says the alpha page.',
  },
  run: everyFeature,
  task: (dir): TaskStep => {
    const fixture = byDir.get(dir);
    if (!fixture) throw new Error(`no site was started for ${dir}`);
    return {
      tool: 'fetch',
      args: { url: fixture.url('/alpha') },
      expectText: 'about apples',
      cancelArgs: { url: fixture.url('/slow') },
    };
  },
});
