/**
 * The odd-input sweep, in both eras: every tool the fetch server lists is called with a battery of
 * odd inputs made from its input schema (URLs that are not URLs, other schemes, hosts that are not
 * allowed or do not resolve, a port nothing listens on, private addresses, pages that are missing,
 * disallowed by robots.txt or redirected away, empty, huge and control-character strings, numbers
 * around every limit, garbage cursors), and every prompt, completion and resource read gets odd
 * values too. Each answer must be a success or one short message: never "internal error", a stack
 * trace, a raw errno or "fetch failed", or a host path. Nothing leaves 127.0.0.1 (the DNS stub).
 */
import { fileURLToPath } from 'node:url';
import {
  ODD_STRINGS,
  type OddInputAnswer,
  type OddInputBattery,
  type OddInputTool,
  type OddSweepTarget,
  oddCompletionSweep,
  oddCursors,
  oddPromptSweep,
  oddResourceSweep,
  oddToolSweep,
  scriptedModel,
} from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as defined } from '../src/tools/index.js';
import { ERAS, type ToolsFixture, toolsFixture, withPort } from './support/tools-kit.js';

const TOOL_NAMES = defined.map((t) => t.name);
// The repository's folder: an answer naming a source or worker file leaks how the host is laid out.
const REPO_DIR = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** URLs wrong in every way a fetch can meet, on the local test server's port. */
function oddUrls(fx: ToolsFixture): string[] {
  const port = fx.server.port;
  return [
    fx.url('/alpha'),
    fx.url('/missing-page'),
    fx.url('/private'),
    fx.url('/redirect-away'),
    fx.url('/json'),
    fx.url('/plain'),
    fx.url('/index'),
    fx.url('/%'),
    fx.url(`/${'p'.repeat(10_000)}`),
    `HTTP://SITE.TEST:${port}/alpha`,
    `http://site.test.:${port}/alpha`,
    `http://user:pass@site.test:${port}/alpha`,
    `http://127.0.0.1:${port}/alpha`,
    'http://site.test:1/',
    'http://site.test:99999/',
    'http://unknown.test/',
    'http://localhost/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://0x7f000001/',
    'http://2130706433/',
    'https://site.test/',
    'ftp://site.test/x',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<p>x</p>',
    'http://',
    'http:///x',
    'not a url',
    '//site.test/alpha',
    ...ODD_STRINGS,
  ];
}

// Node's own wording ("ENOTFOUND: …", "getaddrinfo ENOTFOUND x", "connect ECONNREFUSED 127.0.0.1:1"); a
// sentence that names the code in parentheses after saying what failed is fine.
const RAW_ERRNO = /\b(E[A-Z]{3,}): [a-z]|getaddrinfo|\b(connect|read|write) E[A-Z]{3,}\b/;

/** Fetch's own words for a failed download ("fetch failed", Node's resolver and socket errors). */
function fetchProblems(answer: OddInputAnswer): string[] {
  const problems: string[] = [];
  if (/fetch failed/i.test(answer.text)) problems.push('says only "fetch failed"');
  if (answer.isError && RAW_ERRNO.test(answer.text)) problems.push('carries a raw socket or resolver error');
  return problems;
}

/** The battery: fetch's odd URLs for `url`, odd cursors for `cursor`, core's defaults otherwise. */
const battery =
  (urls: string[]): OddInputBattery =>
  (name) =>
    name === 'url' ? urls : name === 'cursor' ? oddCursors() : undefined;

describe.each(ERAS)('odd inputs, %s era', (era) => {
  let fx: ToolsFixture;
  let listed: OddInputTool[];
  const model = scriptedModel({ answer: () => 'The page is about apples.' });
  const target = (): OddSweepTarget => ({ session: fx.session, hosts: [REPO_DIR], more: fetchProblems });

  beforeAll(async () => {
    fx = await toolsFixture(era, { connect: { sampling: withPort(model.respond, () => fx.server.port) } });
    listed = (await fx.session.client.listTools()).tools as OddInputTool[];
  });
  afterAll(() => fx.close());

  it('lists every tool the server defines, so the sweep below covers them all', () => {
    expect(listed.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it.each(TOOL_NAMES)(
    '%s answers every odd input with a success or one clear sentence',
    async (name) => {
      const tool = listed.find((t) => t.name === name) as OddInputTool;
      const base: Record<string, unknown> = { url: fx.url('/alpha') };
      if (tool.inputSchema.required?.includes('question')) base.question = 'What grows here?';
      const failures = await oddToolSweep(target(), tool, { base, battery: battery(oddUrls(fx)) });
      expect(failures).toEqual([]);
    },
    // Over a hundred fetches, a few of them waiting for a connection that is refused.
    120_000,
  );

  it('answers odd prompt arguments with a prompt or one clear sentence', async () => {
    const failures = await oddPromptSweep(target(), {
      base: () => fx.url('/alpha'),
      values: () => oddUrls(fx),
      withoutArguments: false,
    });
    expect(failures).toEqual([]);
  }, 120_000);

  it('completes odd values, and reads odd resource URIs, to an answer or one clear sentence', async () => {
    const failures = await oddCompletionSweep(target(), { templates: true, tries: oddUrls(fx) });
    const templates = (await fx.session.client.listResourceTemplates()).resourceTemplates;
    const uris = [
      ...templates.flatMap((t) =>
        oddUrls(fx).flatMap((u) => {
          try {
            return [t.uriTemplate.replace(/\{\+?\w+\}/g, encodeURIComponent(u))];
          } catch {
            return [];
          }
        }),
      ),
      'fetch://cache/%ZZ',
      'fetch://cache/',
      'fetch://nothing',
      '',
      'not a uri',
    ];
    failures.push(...(await oddResourceSweep(target(), { uris })));
    expect(failures).toEqual([]);
  }, 120_000);
});
