/**
 * research in both eras, with core's scripted model: the model gets the start page and its links
 * on the same site, reads one with the lent fetch tool, and answers; an off-site URL, a URL that
 * is not a link of the start page, a same-site link that redirects away and reads past the page
 * budget are refused inside the loop (no request for the first two); a client that cannot sample
 * gets the start of the page and a clear sentence.
 */
import { scriptedModel } from '@mcpkit/core/testing';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_LABEL } from '../src/tools/research.js';
import { ERAS, fenced, type ToolsFixture, toolResults, toolsFixture, withPort } from './support/tools-kit.js';

type Research = { answer: string; urls: string[]; model: string; sampled: boolean };

function firstMessage(params: CreateMessageRequestParams | undefined): string {
  const content = params?.messages[0]?.content;
  return content && !Array.isArray(content) && content.type === 'text' ? content.text : '';
}

describe.each(ERAS)('research, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('lends the model a fetch of same-site links and returns its answer with the pages read', async () => {
    const model = scriptedModel({
      toolCalls: [
        { name: 'fetch', input: { url: 'http://site.test:{port}/alpha' } },
        { name: 'fetch', input: { url: 'http://other.test:{port}/secret' } },
        { name: 'fetch', input: { url: 'http://site.test:{port}/plain' } },
        { name: 'fetch', input: { url: 'http://site.test:{port}/redirect-away' } },
      ],
      answer: () => 'Apples grow on the alpha page.',
    });
    fx = await toolsFixture(era, { connect: { sampling: withPort(model.respond, () => fx.server.port) } });
    const { result, text } = await fx.call('research', {
      url: fx.url('/index'),
      question: 'What grows on the alpha page?',
    });
    expect(result.isError, text).toBeFalsy();
    const out = result.structuredContent as Research;
    expect(out).toEqual({
      answer: 'Apples grow on the alpha page.',
      urls: [fx.url('/index'), fx.url('/alpha')],
      model: 'scripted',
      sampled: true,
    });
    // The answer comes after a line saying whose words it is; structuredContent keeps it bare.
    expect(text).toBe(
      `${ANSWER_LABEL}\n\nApples grow on the alpha page.\n\nPages read:\n- ${fx.url('/index')}\n- ${fx.url('/alpha')}`,
    );
    expect(text.split('\n')[0]).toMatch(/^Answer from the client's model, written after reading the pages/);

    const briefing = firstMessage(model.requests[0]);
    expect(briefing).toContain('Question: What grows on the alpha page?');
    expect(fenced(briefing).body).toContain('Index page');
    const linkList = briefing.split('Links on the same site')[1] ?? '';
    expect(fenced(linkList).body).toBe(
      [
        `- ${fx.url('/alpha')} — Alpha page`,
        `- ${fx.url('/beta')} — Beta page`,
        `- ${fx.url('/redirect-away')} — Moved`,
      ].join('\n'),
    );
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['fetch']);

    const results = toolResults(model.requests.at(-1));
    expect(results).toHaveLength(4);
    expect(results[0]?.isError).toBe(false);
    expect(results[0]?.text).toContain('Apples grow on the alpha page');
    expect(results[1]).toEqual({
      text: `${fx.url('/secret', 'other.test')} is not on ${new URL(fx.url('/')).origin}; this research reads only that site.`,
      isError: true,
    });
    expect(results[2]?.text).toMatch(/\/plain is not a link of the start page/);
    expect(results[2]?.isError).toBe(true);
    expect(results[3]?.text).toMatch(
      /redirect-away redirects to http:\/\/other\.test:\d+, another site, so it was not read\./,
    );
    expect(results[3]?.text).not.toContain('the secret');
    expect(fx.server.hits('/plain')).toBe(0);
    // Neither the redirect nor the off-site URL the model asked for directly reached the other site.
    expect(fx.server.hits('/secret')).toBe(0);
    // Each round replays the loop: the pages come from the cache.
    expect(fx.server.hits('/index')).toBe(1);
    expect(fx.server.hits('/alpha')).toBe(1);
  });

  it('stops reading at the page budget', async () => {
    const calls = ['/alpha', '/beta'].map((path) => ({
      name: 'fetch',
      input: { url: `http://site.test:{port}${path}` },
    }));
    const model = scriptedModel({ toolCalls: calls, answer: () => 'Done.' });
    fx = await toolsFixture(era, { connect: { sampling: withPort(model.respond, () => fx.server.port) } });
    const { result } = await fx.call('research', {
      url: fx.url('/index'),
      question: 'Read both.',
      max_pages: 1,
    });
    expect((result.structuredContent as Research).urls).toEqual([fx.url('/index'), fx.url('/alpha')]);
    const results = toolResults(model.requests.at(-1));
    expect(results[1]).toEqual({
      text: 'This research may read 1 linked page(s) and has read them all; answer with what you have.',
      isError: true,
    });
    expect(fx.server.hits('/beta')).toBe(0);
  });

  it('gives a client that cannot sample the start of the page and a clear sentence', async () => {
    fx = await toolsFixture(era);
    const { result, text } = await fx.call('research', { url: fx.url('/article'), question: 'Anything?' });
    expect(result.isError).toBeFalsy();
    expect(text).toMatch(
      /^This client cannot sample, so no model could research the question; read the page with fetch/,
    );
    expect([...fenced(text).body]).toHaveLength(5000);
    expect(text).toContain('Call the fetch tool with a start_index of 5000');
    expect(result.structuredContent).toEqual({
      answer: '',
      urls: [fx.url('/article')],
      model: '',
      sampled: false,
    });
  });

  it('asks once without tools when the client samples without tools', async () => {
    const model = scriptedModel({
      toolCalls: [{ name: 'fetch', input: { url: 'x' } }],
      answer: () => 'Plain.',
    });
    fx = await toolsFixture(era, { connect: { sampling: model.respond, samplingTools: false } });
    const { result } = await fx.call('research', { url: fx.url('/index'), question: 'Q?' });
    expect(result.structuredContent).toMatchObject({ answer: 'Plain.', urls: [fx.url('/index')] });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.tools).toBeUndefined();
  });

  it('reports progress while it reads', async () => {
    const model = scriptedModel({ answer: () => 'ok' });
    fx = await toolsFixture(era, { connect: { sampling: model.respond } });
    const messages: string[] = [];
    await fx.session.callTool(
      'research',
      { url: fx.url('/index'), question: 'Q?' },
      { onprogress: (p) => void (p.message && messages.push(p.message)) },
    );
    expect(messages).toContain('Reading the start page');
  });
});
