/**
 * The odd-input sweep, in both eras: every tool the server lists is called with a battery of odd
 * inputs made from its input schema (missing paths, paths through a file, a directory for a file,
 * loops, FIFOs, empty and huge strings, control characters, bad globs, regexes, patches and
 * cursors), and every prompt, completion and resource read gets odd values too. Each answer must
 * be a success or one short message: never "internal error", a stack trace, a raw errno message or
 * a host path the caller did not send. Writers run in the temporary world, restored before each case.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import {
  connect,
  type OddInputTool,
  type OddSweepTarget,
  oddCompletionSweep,
  oddForeignCursors,
  oddInputAnswer,
  oddInputLabel,
  oddLoopAnswers,
  oddPromptSweep,
  oddResourceSweep,
  oddSweepCheck,
  oddToolSweep,
  scriptedModel,
  type TestSession,
} from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { tools as defined } from '../src/tools/index.js';
import { treeHash, world } from './harness.js';
import {
  fsBase,
  fsBattery,
  fsExtras,
  ODD_GLOBS,
  oddPaths,
  populate,
  type SweepWorld,
} from './sweep-world.js';

const ERAS = ['legacy', 'modern'] as const;
const TOOL_NAMES = defined.map((t) => t.name);
// The package's own folder: an answer naming a source file leaks how the host is laid out.
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

// The path a file URI names, decoded; none for a URI that names no local path.
function pathOf(uri: string): string[] {
  try {
    return [fileURLToPath(uri)];
  } catch {
    return [];
  }
}

// The URI of `path` under `base`; none for a path no URI can carry (a lone surrogate).
function uriOf(base: string, path: string): string[] {
  try {
    return [`${base}/${encodeURI(path)}`];
  } catch {
    return [];
  }
}

describe.each(ERAS)('odd inputs, %s era', (era) => {
  let w: SweepWorld & { cleanup(): Promise<void> };
  let app: App;
  let session: TestSession;
  let listed: OddInputTool[];
  let outsideHash: string;
  let foreignCursors: string[];
  // The model summarize_directory samples; the loop test below scripts one per call.
  let model = scriptedModel();
  const target = (): OddSweepTarget => ({ session, hosts: [w.base, PACKAGE_DIR] });
  const check = (label: string, sent: unknown, answer: Awaited<ReturnType<typeof oddInputAnswer>>) =>
    oddSweepCheck(target(), label, sent, answer);

  beforeAll(async () => {
    w = await world();
    await populate(w);
    outsideHash = await treeHash(w.outside);
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]), resultPageSize: 2 });
    session = await connect(app, {
      era,
      elicitation: () => ({ action: 'accept', content: { confirm: true } }),
      sampling: (params) => model.respond(params),
    });
    listed = (await session.client.listTools()).tools as OddInputTool[];
    // Genuine cursors, each made for another call than the one it will be sent to.
    foreignCursors = await oddForeignCursors(session, [
      ['list_directory', { path: 'many' }],
      ['search_files', { path: 'many', pattern: '*.txt' }],
      ['search_content', { path: 'many', query: 'file' }],
      ['list_directory_with_sizes', { path: 'many' }],
    ]);
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    expect(await treeHash(w.outside)).toBe(outsideHash);
    await w.cleanup();
  });

  it('lists every tool the server defines, so the sweep below covers them all', () => {
    expect(listed.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(foreignCursors.length).toBe(4);
  });

  it.each(TOOL_NAMES)(
    '%s answers every odd input with a success or one clear sentence',
    async (name) => {
      const tool = listed.find((t) => t.name === name) as OddInputTool;
      const base = fsBase(w)[name];
      expect(base, `no base arguments for ${name}`).toBeDefined();
      const failures = await oddToolSweep(target(), tool, {
        base: base as Record<string, unknown>,
        battery: fsBattery(w, foreignCursors),
        extras: fsExtras()[name],
        restore: () => populate(w),
      });
      expect(failures).toEqual([]);
      expect(await treeHash(w.outside)).toBe(outsideHash);
    },
    // Hundreds of calls, a writer's each in a fresh world: more than the default test time on a slow machine.
    120_000,
  );

  it('tells the sampling model one clear sentence when its loop tools get odd paths', async () => {
    const paths = oddPaths(w);
    const failures: string[] = [];
    // Three paths a call: each is listed and read, six tool calls within the eight model turns.
    for (let i = 0; i < paths.length; i += 3) {
      const chunk = paths.slice(i, i + 3);
      model = scriptedModel({
        toolCalls: chunk.flatMap((path) => [
          { name: 'list_directory', input: { path } },
          { name: 'read_text_file', input: { path } },
        ]),
      });
      const answer = await oddInputAnswer(
        session.callTool('summarize_directory', { path: 'dir', maxIterations: 8 }),
      );
      failures.push(...check(`summarize with ${oddInputLabel(chunk)}`, chunk, answer));
      const told = oddLoopAnswers(model.requests);
      expect(told.length).toBe(chunk.length * 2);
      for (const [n, said] of told.entries()) {
        failures.push(...check(`loop ${oddInputLabel(chunk[n >> 1])} #${n}`, chunk, said));
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers odd prompt arguments with a prompt or one clear sentence', async () => {
    const failures = await oddPromptSweep(target(), { base: () => 'dir', values: () => oddPaths(w) });
    const unknown = await oddInputAnswer(session.client.getPrompt({ name: 'no_such_prompt', arguments: {} }));
    failures.push(...check('unknown prompt', {}, unknown));
    expect(failures).toEqual([]);
  });

  it('completes odd values to candidates or one clear sentence', async () => {
    const failures = await oddCompletionSweep(target(), {
      refs: [
        { ref: { type: 'ref/resource', uri: 'file://{+path}' }, arg: 'path' },
        { ref: { type: 'ref/resource', uri: 'file://{+nope}' }, arg: 'path' },
        { ref: { type: 'ref/prompt', name: 'no_such_prompt' }, arg: 'path' },
      ],
      tries: [...oddPaths(w), ...ODD_GLOBS],
    });
    expect(failures).toEqual([]);
  });

  it('reads odd resource URIs to contents or one clear sentence', async () => {
    const base = pathToFileURL(w.allowed).href;
    const uris = [
      ...oddPaths(w).flatMap((p) => uriOf(base, p)),
      '',
      'file://',
      'file:///',
      'file:///%00',
      `${base}/a.txt%00`,
      `${base}/%E0%A4%A`,
      `${base}/${'x'.repeat(10_000)}`,
      `file://remote.example${w.allowed}/a.txt`,
      'http://example.com/a.txt',
      'git://x',
      'not a uri',
      `${base}/a.txt?x=1#y`,
    ];
    // A refusal may quote the URI's own path, as URL parsing decodes it.
    const sent = (uri: string) => [uri, ...pathOf(uri)];
    const failures = await oddResourceSweep(target(), { uris, sent, subscribe: () => true });
    expect(failures).toEqual([]);
  });
});
