/**
 * `sameOrigin` on a request: a redirect that leaves the first URL's origin is refused before it
 * is requested, at any hop of the chain, while redirects within the origin are followed as
 * usual. The research loop reads with it, so a same-site link that redirects to another site
 * never makes a request to that site (before, the request was made and only its text withheld).
 */
import { scriptedModel } from '@mcpkit/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal } from './support/attack-kit.js';
import { rejection, testClient } from './support/clients.js';
import { type LocalServer, redirect, startServer, text } from './support/local-server.js';
import { ERAS, type ToolsFixture, toolResults, toolsFixture, withPort } from './support/tools-kit.js';

const HOSTS = ['site.test', 'other.test'];
const DNS = { 'site.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] };
const LEAVES = /redirects to http:\/\/other\.test:\d+, another site, so it was not read\./;

let server: LocalServer;
beforeAll(async () => {
  server = await startServer({ '/ok': text('fine'), '/secret': text('the secret', 'text/plain') });
  server.route('/away', redirect(server.url('/secret', 'other.test')));
  server.route('/hop', redirect('/away'));
  server.route('/inside', redirect('/ok', 301));
});
afterAll(() => server.close());

describe('a request pinned to its origin', () => {
  it('refuses a redirect to another origin without requesting it', async () => {
    const client = testClient({ dns: DNS, allowHosts: HOSTS });
    const before = server.hits('/secret');
    const error = await rejection(client.fetch(server.url('/away', 'site.test'), { sameOrigin: true }));
    expectRefusal(error, LEAVES);
    expect(error.message).toContain(server.url('/away', 'site.test'));
    expect(server.hits('/secret')).toBe(before);
    await client.close();
  });

  it('refuses it at a later hop, after following the redirects within the origin', async () => {
    const client = testClient({ dns: DNS, allowHosts: HOSTS });
    const before = { hop: server.hits('/hop'), away: server.hits('/away'), secret: server.hits('/secret') };
    const error = await rejection(client.fetch(server.url('/hop', 'site.test'), { sameOrigin: true }));
    expectRefusal(error, LEAVES);
    expect(server.hits('/hop')).toBe(before.hop + 1);
    expect(server.hits('/away')).toBe(before.away + 1);
    expect(server.hits('/secret')).toBe(before.secret);
    await client.close();
  });

  it('counts another port or scheme of the same host as another origin', async () => {
    const client = testClient({ dns: DNS, allowHosts: HOSTS });
    server.route('/port', redirect(`http://site.test:${server.port + 1}/ok`));
    const error = await rejection(client.fetch(server.url('/port', 'site.test'), { sameOrigin: true }));
    expectRefusal(error, /redirects to http:\/\/site\.test:\d+, another site/);
    await client.close();
  });

  it('follows redirects within the origin', async () => {
    const client = testClient({ dns: DNS, allowHosts: HOSTS });
    const result = await client.fetch(server.url('/inside', 'site.test'), { sameOrigin: true });
    expect(result.status).toBe(200);
    expect(result.url).toBe(server.url('/ok', 'site.test'));
    expect(result.redirects).toEqual([server.url('/inside', 'site.test')]);
    await client.close();
  });

  it('leaves requests without it free to change origin', async () => {
    const client = testClient({ dns: DNS, allowHosts: HOSTS });
    const before = server.hits('/secret');
    const result = await client.fetch(server.url('/away', 'site.test'));
    expect(new TextDecoder().decode(result.body)).toBe('the secret');
    expect(server.hits('/secret')).toBe(before + 1);
    await client.close();
  });
});

describe.each(ERAS)('research reading a same-site link that redirects away, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('refuses it before the other site is asked anything', async () => {
    const model = scriptedModel({
      toolCalls: [
        { name: 'fetch', input: { url: 'http://site.test:{port}/redirect-away' } },
        { name: 'fetch', input: { url: 'http://site.test:{port}/alpha' } },
      ],
      answer: () => 'Only the alpha page could be read.',
    });
    fx = await toolsFixture(era, { connect: { sampling: withPort(model.respond, () => fx.server.port) } });
    const { result, text } = await fx.call('research', { url: fx.url('/index'), question: 'What is there?' });
    expect(result.isError, text).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      answer: 'Only the alpha page could be read.',
      urls: [fx.url('/index'), fx.url('/alpha')],
    });
    const [away, alpha] = toolResults(model.requests.at(-1));
    expect(away?.isError).toBe(true);
    expect(away?.text).toMatch(LEAVES);
    expect(away?.text).not.toContain('the secret');
    expect(alpha?.text).toContain('Apples grow on the alpha page');
    // The link itself was asked (once: later rounds replay it without a request to the other
    // site either); the site it redirects to never was.
    expect(fx.server.hits('/redirect-away')).toBeGreaterThanOrEqual(1);
    expect(fx.server.hits('/secret')).toBe(0);
  });

  it('refuses a copy the fetch tool cached after following the redirect', async () => {
    const model = scriptedModel({
      toolCalls: [{ name: 'fetch', input: { url: 'http://site.test:{port}/redirect-away' } }],
      answer: () => 'Nothing read.',
    });
    fx = await toolsFixture(era, { connect: { sampling: withPort(model.respond, () => fx.server.port) } });
    // The fetch tool may follow the redirect: its copy is cached under the link's URL.
    const fetched = await fx.call('fetch', { url: fx.url('/redirect-away') });
    expect(fetched.text).toContain('the secret');
    const { result } = await fx.call('research', { url: fx.url('/index'), question: 'Q?' });
    expect(result.structuredContent).toMatchObject({ urls: [fx.url('/index')] });
    const [away] = toolResults(model.requests.at(-1));
    expect(away?.text).toMatch(LEAVES);
    expect(away?.text).not.toContain('the secret');
  });
});
