import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesFixture } from './fixtures.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Sends raw lines to the stdio bin and collects every JSON line it answers with. */
function rawSession(dir: string) {
  const child = spawn(process.execPath, [BIN, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  const replies: Record<string, unknown>[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      replies.push(JSON.parse(line) as Record<string, unknown>);
      nl = buffer.indexOf('\n');
    }
  });
  return {
    child,
    replies,
    stderr: () => stderr,
    send: (line: string) => child.stdin.write(`${line}\n`),
    reply: async (id: unknown) => {
      await expect.poll(() => replies.find((r) => r.id === id), { timeout: 5000 }).toBeDefined();
      return replies.find((r) => r.id === id)!;
    },
  };
}

describe('bad input over stdio never crashes the server', () => {
  let fx: Awaited<ReturnType<typeof notesFixture>>;
  beforeAll(async () => {
    fx = await notesFixture();
  });
  afterAll(() => fx.cleanup());

  it('answers or ignores garbage and keeps serving', async () => {
    const s = rawSession(fx.dir);
    s.send('this is not json');
    s.send('{"jsonrpc":"2.0","id":1,"method":');
    s.send('[1,2,3]');
    s.send('{"jsonrpc":"2.0","id":{"nested":true},"method":"ping"}');
    s.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '0' },
        },
      }),
    );
    expect(await s.reply(2)).toHaveProperty('result.serverInfo.name', 'mcpkit-example');
    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    s.send('{"jsonrpc":"2.0","id":3,"method":"no/such/method"}');
    expect(await s.reply(3)).toHaveProperty('error.code', -32601);
    s.send('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5,"arguments":"x"}}');
    expect(await s.reply(4)).toHaveProperty('error');
    s.send(
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_note","arguments":{"name":42}}}',
    );
    expect(await s.reply(5)).toHaveProperty('result.isError', true);
    const hugeId = 'x'.repeat(100_000);
    s.send(JSON.stringify({ jsonrpc: '2.0', id: hugeId, method: 'ping' }));
    await s.reply(hugeId);
    s.send(JSON.stringify({ jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER, method: 'ping' }));
    await s.reply(Number.MAX_SAFE_INTEGER);
    s.send(
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"read_note","arguments":{"name":"alpha"}}}',
    );
    const good = await s.reply(6);
    expect(JSON.stringify(good)).toContain('apples');
    expect(s.child.exitCode).toBeNull();
    expect(s.stderr()).not.toMatch(/\n\s+at /);
    const exited = new Promise<number | null>((r) => s.child.once('exit', (code) => r(code)));
    s.child.stdin.end();
    expect(await exited).toBe(0);
  });
});
