/**
 * What the odd-input sweep (sweep-odd-inputs.test.ts) found answered with "internal error" or a
 * bare "failed", each pinned to the sentence it gets now, in both eras: a path longer than the
 * system allows (every tool), summarize_directory on a file or a missing path and its loop tools,
 * read_multiple_files' inline error, and a resource read of a missing file.
 */
import { pathToFileURL } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, scriptedModel, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { world } from './harness.js';
import { populate, type SweepWorld } from './sweep-world.js';

// Longer than PATH_MAX, though every name in it is short: core finds it "missing", the system refuses it.
const TOO_LONG = `${'d/'.repeat(2100)}x`;
const SAYS_TOO_LONG =
  /^"allowed\/d\/d\/d[^"]*…" is too long for the file system; use a shorter path or shorter names\.$/;

describe.each(['legacy', 'modern'] as const)('sentences the sweep found missing, %s era', (era) => {
  let w: SweepWorld & { cleanup(): Promise<void> };
  let app: App;
  let session: TestSession;
  let model = scriptedModel();

  beforeAll(async () => {
    w = await world();
    await populate(w);
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
    session = await connect(app, { era, sampling: (params) => model.respond(params) });
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it.each([
    ['read_text_file', { path: TOO_LONG }],
    ['get_file_info', { path: TOO_LONG }],
    ['list_directory', { path: TOO_LONG }],
    ['search_files', { path: TOO_LONG, pattern: '*' }],
    ['write_file', { path: TOO_LONG, content: 'x' }],
    ['create_directory', { path: TOO_LONG }],
    ['copy_file', { source: 'a.txt', destination: TOO_LONG }],
  ])('%s says a path longer than the system allows is too long', async (tool, args) => {
    const result = await session.callTool(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(SAYS_TOO_LONG);
  });

  it('read_multiple_files says so in the file’s place, and reads the others', async () => {
    const text = textOf(await session.callTool('read_multiple_files', { paths: [TOO_LONG, 'a.txt'] }));
    expect(text).toMatch(
      /": Error - "allowed\/d\/d[^"]*…" is too long for the file system; use a shorter path/,
    );
    expect(text).toContain('a.txt:\nhello\n');
    expect(text).not.toContain('internal error');
  });

  it('summarize_directory names a file or a missing path instead of failing inside', async () => {
    const file = await session.callTool('summarize_directory', { path: 'a.txt' });
    expect(textOf(file)).toBe('"allowed/a.txt" is not a directory; pass a directory to list or search.');
    const missing = await session.callTool('summarize_directory', { path: 'missing' });
    expect(textOf(missing)).toBe('"allowed/missing" does not exist; check the path and try again.');
  });

  it('tells the sampling model why its loop tool failed, not only that it did', async () => {
    model = scriptedModel({
      toolCalls: [
        { name: 'list_directory', input: { path: 'missing' } },
        { name: 'list_directory', input: { path: 'a.txt' } },
        { name: 'list_directory', input: { path: TOO_LONG } },
        { name: 'list_directory', input: { path: 'empty' } },
      ],
    });
    await session.callTool('summarize_directory', { path: 'dir' });
    const last = model.requests.at(-1)?.messages ?? [];
    const told = last
      .flatMap((m) => (Array.isArray(m.content) ? m.content : [m.content]))
      .flatMap((b) => (b.type === 'tool_result' ? [(b.content as { text: string }[])[0]?.text] : []));
    expect(told).toHaveLength(4);
    expect(told[0]).toBe('"allowed/missing" does not exist; check the path and try again.');
    expect(told[1]).toBe('"allowed/a.txt" is not a directory; pass a directory to list or search.');
    expect(told[2]).toMatch(SAYS_TOO_LONG);
    expect(told[3]).toBe('The directory is empty.');
  });

  it('quotes a long path cut short, not whole, where a message names it', async () => {
    const longDir = `${'n/'.repeat(600)}x`;
    const answers = [
      textOf(
        await session.callTool('apply_patch', {
          patch: '--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n',
          cwd: longDir,
        }),
      ),
      await session.client.getPrompt({ name: 'review_file', arguments: { path: longDir } }).catch(String),
      await session.client
        .getPrompt({ name: 'explain_directory', arguments: { path: longDir } })
        .catch(String),
      await session.client.readResource({ uri: `${pathToFileURL(w.allowed).href}/${longDir}` }).catch(String),
    ];
    for (const answer of answers) {
      expect(answer).toMatch(/"allowed\/n\/n\/n[^"]*…"/);
      expect(answer.length).toBeLessThan(400);
    }
  });

  it('says which file a resource read did not find', async () => {
    const base = pathToFileURL(w.allowed).href;
    await expect(session.client.readResource({ uri: `${base}/missing.txt` })).rejects.toThrow(
      '"allowed/missing.txt" does not exist; list its directory with list_directory to see what is there.',
    );
    await expect(
      session.client.readResource({ uri: `file://remote.example${w.allowed}/a.txt` }),
    ).rejects.toThrow('Only file:/// URIs of this machine name files here');
  });
});
