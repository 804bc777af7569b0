/**
 * The review attack corpus: a review that tried to break the server as a model controlling tool
 * arguments. This file sends the inputs of attacks-review-corpus.ts in both eras; each asserts that
 * the attack fails, that nothing outside the root changed (treeHash), and that no secret and no
 * host path outside leaks. Resources, completions, prompts and subscriptions get the same probes.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, symlinkSync, existsSync as syncExists, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { ATTACKS, setUpCorpus } from './attacks-review-corpus.js';
import { type Era, expectNoLeak, type World } from './attacks-review-kit.js';
import { leakedPaths, stringsIn, textOf, treeHash, world } from './harness.js';

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

describe('review corpus: inputs a model can send', () => {
  let w: World;
  let app: App;
  let socket: Server;
  let outsideHash: string;
  beforeAll(async () => {
    w = await world();
    socket = await setUpCorpus(w);
    outsideHash = await treeHash(w.outside);
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => socket.close(resolve));
    await w.cleanup();
  });

  it(`holds at least 30 tool inputs (${ATTACKS.length})`, () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    let session: TestSession;
    beforeAll(async () => {
      session = await connect(app, { era });
    });
    afterAll(() => session.close());

    it.each(ATTACKS)('$name ($tool)', async (attack) => {
      const args = attack.args(w);
      const result = await session.callTool(attack.tool, args);
      if (!attack.maySucceed) expect(result.isError, textOf(result).slice(0, 300)).toBe(true);
      expectNoLeak(w, result, args);
      if (result.isError) expect(leakedPaths(textOf(result), w.base, stringsIn(args))).toEqual([]);
      expect(await treeHash(w.outside)).toBe(outsideHash);
      // A link an attack removed (harmlessly) is put back for the inputs after it.
      if (!lexists(join(w.allowed, 'd'))) symlinkSync(w.outside, join(w.allowed, 'd'));
      // The secrets inside are where they were.
      expect(readFileSync(join(w.allowed, '.env'), 'utf8')).toBe('TOKEN=hunter2\n');
      expect(syncExists(join(w.allowed, '.ssh', 'id_rsa'))).toBe(true);
    });

    it('answers the same for anything behind an outward link (no existence oracle)', async () => {
      const probe = async (rel: string) => {
        const path = join(w.allowed, 'd', rel);
        return textOf(await session.callTool('read_text_file', { path })).replace(path, 'X');
      };
      const answers = new Set([
        await probe('secret.txt/x'),
        await probe('dir/x'),
        await probe('nothing/x'),
        await probe('secret.txt/a/b'),
      ]);
      expect([...answers]).toHaveLength(1);
    });

    it('keeps a newline in an echoed path from forging a section of read_multiple_files', async () => {
      const forged = `nope\n---\n${w.allowed}/a.txt:\nFORGED CONTENT`;
      const result = await session.callTool('read_multiple_files', { paths: [forged] });
      expect(textOf(result)).not.toMatch(/^FORGED CONTENT/m);
      expect(textOf(result)).toContain('\\nFORGED CONTENT');
    });

    it('reads no file:// resource outside, behind a link, secret, or on another host', async () => {
      const base = pathToFileURL(w.allowed).href;
      const uris = [
        `${base}/../outside/secret.txt`,
        `${base}/%2e%2e/outside/secret.txt`,
        `${base}/%2E%2E%2Foutside%2Fsecret.txt`,
        `file://localhost${w.outside}/secret.txt`,
        `file://evil.example${w.allowed}/a.txt`,
        `${base}/a.txt%00.png`,
        `${base}/d/secret.txt`,
        `${base}/notes.txt`,
        `${base}/keys/id_rsa`,
        `${base}/p.png`,
      ];
      for (const uri of uris) {
        const outcome = await session.client.readResource({ uri }).then(
          (r) => ({ ok: true as const, r }),
          (e: unknown) => ({ ok: false as const, e: String(e) }),
        );
        expect(outcome.ok, uri).toBe(false);
        // A refusal may quote the URI's own path as URL parsing normalises it (".." and %2e%2e folded).
        const normalised = (() => {
          try {
            return fileURLToPath(new URL(uri));
          } catch {
            return uri;
          }
        })();
        expectNoLeak(w, outcome, [uri, normalised]);
      }
    });

    it('completes nothing outside, behind a link, or secret', async () => {
      const complete = async (value: string) =>
        (
          await session.client.complete({
            ref: { type: 'ref/resource', uri: 'file://{+path}' },
            argument: { name: 'path', value },
          })
        ).completion.values;
      for (const value of [
        `${w.allowed}/../outside/`,
        `${w.allowed}/d/`,
        `${w.base}/`,
        `${w.allowed}/.ssh/`,
        `${w.allowed}/keys/`,
      ]) {
        const values = await complete(value);
        expect(values.join('\n'), value).not.toMatch(/secret|outside-only|id_rsa/);
      }
      const top = await complete(`${w.allowed}/`);
      expect(top.join('\n')).not.toMatch(/\.env|\.ssh/);
    });

    it('explain_directory lists no secret names and escapes control characters in names', async () => {
      const odd = join(w.allowed, 'evil\nname.txt');
      writeFileSync(odd, 'x');
      try {
        const prompt = await session.client.getPrompt({
          name: 'explain_directory',
          arguments: { path: w.allowed },
        });
        const text = JSON.parse(JSON.stringify(prompt.messages))
          .map((m: { content: { text: string } }) => m.content.text)
          .join('\n') as string;
        expect(text).not.toMatch(/\.env|\.ssh|\.Env/);
        expect(text).toContain('evil\\nname.txt');
        expect(text).not.toContain('evil\nname.txt');
      } finally {
        execFileSync('rm', ['-f', odd]);
      }
    });

    it('watches no file behind a link to outside, and no secret behind an innocent name', async () => {
      if (era === 'modern') return; // One hub serves both eras; resources/subscribe is a 2025 request.
      const probes = ['d/secret.txt', 'notes.txt'].map((rel) => pathToFileURL(join(w.allowed, rel)).href);
      const control = pathToFileURL(join(w.allowed, 'a.txt')).href;
      for (const uri of [...probes, control]) await session.client.subscribeResource({ uri });
      try {
        await new Promise((r) => setTimeout(r, 200));
        // Same content again: only the change event matters, the trees stay as they were.
        writeFileSync(join(w.outside, 'secret.txt'), 'top secret\n');
        writeFileSync(join(w.allowed, '.env'), 'TOKEN=hunter2\n');
        await new Promise((r) => setTimeout(r, 200));
        writeFileSync(join(w.allowed, 'a.txt'), 'a\n');
        await session.notifications.waitFor(
          'notifications/resources/updated',
          (n) => n.params?.uri === control,
        );
        await new Promise((r) => setTimeout(r, 300));
        const updated = session.notifications
          .byMethod('notifications/resources/updated')
          .map((n) => n.params?.uri);
        for (const uri of probes) expect(updated, uri).not.toContain(uri);
      } finally {
        for (const uri of [...probes, control]) await session.client.unsubscribeResource({ uri });
      }
    });
  });
});
