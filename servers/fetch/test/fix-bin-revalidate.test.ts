/**
 * `--revalidate-interval <seconds>` on the built bin: a bad value stops the server at start with
 * one sentence and the usage exit code; a good one is taken, and a subscribed page is then
 * revalidated that often (a change on the local site reaches the client as resources/updated).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startServer } from './support/local-server.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Runs the bin with `args`; resolves with its exit code and stderr. */
function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('--revalidate-interval', () => {
  it.each(['0', '-1', 'abc', '', '86401', 'Infinity'])('refuses %j with one sentence', async (value) => {
    const { code, stderr } = await run([`--revalidate-interval=${value}`]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'mcpkit-fetch: --revalidate-interval must be a number of seconds from 0.1 to 86400, e.g. 60 or 0.5.',
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  describe('with a short interval', () => {
    let site: LocalServer;
    let session: TestSession;
    let text = 'First words.';
    beforeAll(async () => {
      site = await startServer({
        '/robots.txt': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('User-agent: *\nAllow: /\n');
        },
        '/page': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(text);
        },
      });
      session = await connect(undefined, {
        era: 'legacy',
        transport: {
          stdio: {
            command: process.execPath,
            args: [BIN, '--allow-host', '127.0.0.1', '--revalidate-interval', '0.2'],
          },
        },
      });
    });
    afterAll(async () => {
      await session.close();
      await site.close();
    });

    it('revalidates a subscribed page that often', async () => {
      const url = site.url('/page');
      const uri = `fetch://cache/${encodeURIComponent(url)}`;
      await session.callTool('fetch', { url });
      await session.client.subscribeResource({ uri });
      const before = site.hits('/page');
      // A few revalidations at 0.2 s, where the default would make none for a minute.
      await expect.poll(() => site.hits('/page'), { timeout: 5_000 }).toBeGreaterThanOrEqual(before + 3);
      // Only a notification that comes after the change counts.
      const seen = new Set(session.notifications.all);
      text = 'Changed words.';
      await session.notifications.waitFor(
        'notifications/resources/updated',
        (n) => !seen.has(n) && n.params?.uri === uri,
        5_000,
      );
    });
  });
});
