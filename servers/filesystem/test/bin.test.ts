import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type HttpBin, startHttpBin, type TestTransport } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakedPaths, textOf, treeHash, world } from './harness.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe('mcpkit-filesystem as a real process', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let http: HttpBin;
  let url: string;
  beforeAll(async () => {
    w = await world();
    await writeFile(join(w.allowed, 'hello.txt'), 'hello\nworld\n');
    http = await startHttpBin(BIN, [w.allowed]);
    url = http.url;
  });
  afterAll(async () => {
    expect(await http.stop()).toBe(0);
    await w.cleanup();
  });

  for (const era of ['legacy', 'modern'] as const) {
    for (const kind of ['stdio', 'http'] as const) {
      it(`${kind}, ${era} era: read, write and replace, search, and an escape refused`, async () => {
        const transport: TestTransport =
          kind === 'stdio' ? { stdio: { command: process.execPath, args: [BIN, w.allowed] } } : { http: url };
        const outsideBefore = await treeHash(w.outside);
        const session = await connect(undefined, {
          era,
          transport,
          elicitation: () => ({ action: 'accept', content: { confirm: true } }),
        });
        try {
          expect(
            textOf(await session.callTool('read_text_file', { path: join(w.allowed, 'hello.txt'), head: 1 })),
          ).toBe('hello');
          const target = join(w.allowed, `out-${kind}-${era}.txt`);
          await session.callTool('write_file', { path: target, content: 'one' });
          await session.callTool('write_file', { path: target, content: 'two' });
          expect(await readFile(target, 'utf8')).toBe('two');
          const found = await session.callTool('search_files', {
            path: w.allowed,
            pattern: `*${kind}-${era}*`,
          });
          expect(textOf(found)).toContain(target);
          const escapePath = `${w.allowed}/../outside/secret.txt`;
          const escaped = await session.callTool('read_text_file', { path: escapePath });
          expect(escaped.isError).toBe(true);
          expect(textOf(escaped)).not.toContain('top secret');
          expect(leakedPaths(textOf(escaped), w.base, [escapePath])).toEqual([]);
          expect(await treeHash(w.outside)).toBe(outsideBefore);
        } finally {
          await session.close();
        }
      });
    }
  }

  it('--confirm-overwrite makes write_file ask before replacing, and --help lists it', async () => {
    const target = join(w.allowed, 'guarded.txt');
    await writeFile(target, 'kept\n');
    const args = [BIN, '--confirm-overwrite', w.allowed];
    const blind = await connect(undefined, {
      era: 'legacy',
      transport: { stdio: { command: process.execPath, args } },
    });
    try {
      const refused = await blind.callTool('write_file', { path: target, content: 'lost' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/call again with "confirm": true/);
      expect(await readFile(target, 'utf8')).toBe('kept\n');
      expect(
        (await blind.callTool('write_file', { path: target, content: 'new', confirm: true })).isError,
      ).toBeFalsy();
      expect(await readFile(target, 'utf8')).toBe('new');
    } finally {
      await blind.close();
    }
    const help = await new Promise<string>((resolve) => {
      const c = spawn(process.execPath, [BIN, '--help']);
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d));
      c.stderr.on('data', (d: Buffer) => (out += d));
      c.on('exit', () => resolve(out));
    });
    expect(help).toContain('--confirm-overwrite');
  });

  it('refuses to start without a directory, with one sentence and exit code 2', async () => {
    const result = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const c = spawn(process.execPath, [BIN]);
      let err = '';
      c.stderr.on('data', (d: Buffer) => (err += d));
      c.on('exit', (code) => resolve({ code, err }));
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('at least one directory');
  });

  it('refuses a media limit that is not plain digits, naming the variable it came from', async () => {
    for (const [value, env] of [
      ['0x10', true],
      ['1e3', true],
      ['12abc', false],
    ] as const) {
      const args = env ? [BIN, w.allowed] : [BIN, '--max-media-bytes', value, w.allowed];
      const result = await new Promise<{ code: number | null; err: string }>((resolve) => {
        const c = spawn(process.execPath, args, {
          env: { ...process.env, ...(env ? { MCPKIT_MAX_MEDIA_BYTES: value } : {}) },
        });
        let err = '';
        c.stderr.on('data', (d: Buffer) => (err += d));
        c.on('exit', (code) => resolve({ code, err }));
      });
      expect(result.code).toBe(2);
      expect(result.err.split('\n')[0]).toBe(
        `mcpkit-filesystem: ${env ? 'MCPKIT_MAX_MEDIA_BYTES' : '--max-media-bytes'} must be a whole number of bytes.`,
      );
    }
  });
});
