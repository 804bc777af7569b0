/**
 * `--total-timeout <seconds>` (or `MCPKIT_TOTAL_TIMEOUT`): the deadline of a whole download. A
 * value that is not a whole number of seconds from 1 to the maximum stops the server at start
 * with one sentence naming what the user set, exit code 2. A good value reaches every download:
 * each way the server reads a page (the three tools, research's page reads, the prompt, the
 * re-validation of a subscribed page) is stopped at 1 s by a 127.0.0.1 server that sends a byte
 * every 100 ms for ever, with the deadline's sentence, and the server sees the download's socket
 * closed by the client. robots.txt keeps its own shorter deadline, never longer than this one. The app is made by the bin's own `create` from a parsed command line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@mcpkit/core/logging';
import { type ParsedCommandLine, parseCommandLine, UsageError } from '@mcpkit/core/runner';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../src/cli.js';
import type { FetchContext } from '../src/context.js';
import { cacheUri } from '../src/resources/cache-uri.js';
import { rejection } from './support/clients.js';
import { type Handler, type LocalServer, startServer, text } from './support/local-server.js';
import { ERAS, expectSentence } from './support/tools-kit.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The sentence for a flag or variable the user set wrong. */
const REFUSED = 'must be a whole number of seconds from 1 to 3600, e.g. 30.';

/** A 320×240 GIF header: fetch_image sizes it and reads on. */
const GIF = Buffer.from([...Buffer.from('GIF89a'), 0x40, 0x01, 0xf0, 0x00, 0, 0, 0, 0x3b]);

/** The bin's command line: these arguments, and only this environment. */
function commandLine(argv: string[], env: Record<string, string> = {}): ParsedCommandLine {
  return parseCommandLine(argv, cli.options, env, cli.bin);
}

async function appOf(argv: string[], env: Record<string, string> = {}): Promise<App<FetchContext>> {
  return (await cli.create(commandLine(argv, env), silentLogger)) as App<FetchContext>;
}

/** Runs the built bin; resolves with its exit code and stderr. */
function runBin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('--total-timeout on the command line', () => {
  it.each(['0', '-1', '1.5', '30.0', 'abc', '', '3601', '1e3', '0x1e', ' 30', 'Infinity'])(
    'refuses %j with one sentence naming the flag',
    async (value) => {
      const error = await rejection(appOf([`--total-timeout=${value}`]));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`--total-timeout ${REFUSED}`);
    },
  );

  it('names the variable when the value came from MCPKIT_TOTAL_TIMEOUT', async () => {
    const error = await rejection(appOf([], { MCPKIT_TOTAL_TIMEOUT: '0' }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`MCPKIT_TOTAL_TIMEOUT ${REFUSED}`);
  });

  it.each([
    [[], {}, 30_000],
    [['--total-timeout', '1'], {}, 1_000],
    [['--total-timeout', '3600'], {}, 3_600_000],
    [[], { MCPKIT_TOTAL_TIMEOUT: '45' }, 45_000],
    [['--total-timeout', '5'], { MCPKIT_TOTAL_TIMEOUT: 'abc' }, 5_000],
  ] as const)('takes %j with %j as %d ms for every download', async (argv, env, ms) => {
    const app = await appOf([...argv], { ...env });
    try {
      expect(app.context.client.limits.totalTimeoutMs).toBe(ms);
    } finally {
      await app.close();
    }
  });

  it('stops the built bin at start with exit code 2 and the sentence', async () => {
    const flag = await runBin(['--total-timeout', '0']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(`mcpkit-fetch: --total-timeout ${REFUSED}`);
    const variable = await runBin([], { MCPKIT_TOTAL_TIMEOUT: '86400' });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain(`mcpkit-fetch: MCPKIT_TOTAL_TIMEOUT ${REFUSED}`);
    expect(flag.stderr + variable.stderr).not.toMatch(/\n\s+at /);
  });
});

/** Headers at once, `first` if given, then a byte every 100 ms until the client goes away. */
function drip(type: string, first?: Uint8Array) {
  const state = { opened: 0, closed: 0 };
  const handler: Handler = (_req, res) => {
    state.opened++;
    res.writeHead(200, { 'content-type': type });
    if (first) res.write(first);
    const timer = setInterval(() => res.write('.'), 100);
    res.on('close', () => {
      clearInterval(timer);
      state.closed++;
    });
  };
  return { state, handler };
}

/** Polls until `condition` holds; no deadline of its own (one that never holds is the test timeout's). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe.each(ERAS)('a 1 s --total-timeout, %s era', (era) => {
  let server: LocalServer;
  let app: App<FetchContext>;
  let session: TestSession;
  const page = drip('text/html');
  const image = drip('image/gif', GIF);

  afterEach(async () => {
    await session.close();
    await app.close();
    await server.close();
  });

  async function start(): Promise<void> {
    page.state.opened = page.state.closed = 0;
    image.state.opened = image.state.closed = 0;
    server = await startServer({
      '/robots.txt': text('User-agent: *\nAllow: /\n', 'text/plain'),
      '/drip': page.handler,
      '/drip.gif': image.handler,
    });
    const argv = ['--allow-host', '127.0.0.1', '--total-timeout', '1', '--revalidate-interval', '0.1'];
    app = await appOf(argv);
    session = await connect(app, { era });
  }

  /** The deadline's sentence for a path of the local server. */
  const stopped = (path: string) =>
    `Fetching ${server.url(path)} took longer than 1 s, so it was stopped; try again later.`;

  it.each([
    ['fetch', '/drip', {}],
    ['fetch_links', '/drip', {}],
    ['fetch_image', '/drip.gif', {}],
    ['research', '/drip', { question: 'What is on the page?' }],
  ] as const)('stops %s with the sentence, and the download ends', async (tool, path, extra) => {
    await start();
    const result = await session.callTool(tool, { url: server.url(path), ...extra });
    expectSentence(result, /took longer than 1 s/);
    expect(textOf(result)).toBe(stopped(path));
    const { state } = path === '/drip' ? page : image;
    expect(state.opened).toBe(1);
    await until(() => state.closed === 1);
  });

  it("caps robots.txt's own deadline at it too", async () => {
    await start();
    server.route('/robots.txt', page.handler);
    const result = await session.callTool('fetch', { url: server.url('/page') });
    expectSentence(
      result,
      /could not be read \(Fetching .*\/robots\.txt took longer than 1 s, so it was stopped\)/,
    );
    expect(server.hits('/page')).toBe(0);
    await until(() => page.state.opened === 1 && page.state.closed === 1);
  });

  it('stops the fetch prompt, whose message says why', async () => {
    await start();
    const prompt = await session.client.getPrompt({ name: 'fetch', arguments: { url: server.url('/drip') } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: stopped('/drip') } }]);
    await until(() => page.state.opened === 1 && page.state.closed === 1);
  });

  it("stops a subscribed page's re-validation, and the watch goes on", async () => {
    await start();
    let served = false;
    server.route('/watched', (req, res) => {
      if (served) return page.handler(req, res);
      served = true;
      text('<p>The watched page.</p>')(req, res);
    });
    const url = server.url('/watched');
    expect(textOf(await session.callTool('fetch', { url }))).toContain('The watched page.');
    const uri = cacheUri(url);
    let unsubscribe: () => Promise<unknown>;
    if (era === 'legacy') {
      await session.client.subscribeResource({ uri });
      unsubscribe = () => session.client.unsubscribeResource({ uri });
    } else {
      const sub = await session.client.listen({ resourceSubscriptions: [uri] });
      unsubscribe = () => sub.close();
    }
    try {
      // Only the deadline ends a re-validation while the subscription lasts; the next one follows.
      await until(() => page.state.closed >= 1 && page.state.opened >= 2);
    } finally {
      await unsubscribe();
    }
  });
});
