/**
 * A second attack corpus, from a review that tried to break the server as a model controlling tool
 * arguments (and, for the races, a local process that can rename and link inside an allowed
 * directory). Each finding has inputs here that failed before its fix; the rest are inputs that
 * already held and must keep holding. Every input asserts that the attack fails, that nothing
 * outside the root changed (treeHash), and that no secret and no host path outside leaks.
 *
 * Races are made deterministic: `node:fs/promises` (and `open` of `node:fs`) are wrapped, and a
 * test arms a swap (`sub` renamed away, a symbolic link to the outside directory put in its place)
 * that runs right before the first file operation after the path was checked.
 */
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  existsSync as syncExists,
  writeFileSync,
} from 'node:fs';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileQuery } from '../src/fs/content-search.js';
import { lineTest, searchFile } from '../src/fs/content-worker.js';
import { GitignoreRules } from '../src/fs/gitignore-rules.js';
import { compileGlob } from '../src/fs/glob.js';
import { compileGlobTest, expandBraces, MAX_ALTERNATIVES } from '../src/fs/glob-match.js';
import { PinnedDir } from '../src/fs/pinned.js';
import { removeTree } from '../src/fs/remove-tree.js';
import { createFilesystemApp } from '../src/server.js';
import { leakedPaths, stringsIn, textOf, treeHash, world } from './harness.js';

type World = Awaited<ReturnType<typeof world>>;
type Era = 'legacy' | 'modern';

// ---------------------------------------------------------------------------------------------
// The race hook: a pass-through wrapper of the file system calls the server makes.

interface Trap {
  /** Decides whether this call is the one to race; calls it rejects pass untouched. */
  when: (name: string, args: readonly unknown[]) => boolean;
  /** Matching calls to let through before firing. */
  skip: number;
  act: () => void;
}

const race = vi.hoisted(() => ({ trap: undefined as Trap | undefined, fired: 0 }));

function spring(name: string, args: readonly unknown[]): void {
  const trap = race.trap;
  if (!trap?.when(name, args)) return;
  if (trap.skip > 0) {
    trap.skip--;
    return;
  }
  race.trap = undefined;
  race.fired++;
  trap.act();
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const names = [
    'open',
    'opendir',
    'readdir',
    'rename',
    'mkdir',
    'rm',
    'rmdir',
    'unlink',
    'cp',
    'lstat',
    'symlink',
  ] as const;
  const wrapped: Record<string, unknown> = {};
  for (const name of names) {
    const fn = real[name] as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      spring(name, args);
      return fn(...args);
    };
  }
  return { ...real, ...wrapped, default: { ...real, ...wrapped } };
});

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const open = (...args: unknown[]) => {
    spring('fs.open', args);
    return (real.open as (...a: unknown[]) => unknown)(...args);
  };
  // The walk opens directories with openSync (an O_PATH open does no I/O).
  const openSync = (...args: unknown[]) => {
    spring('fs.openSync', args);
    return (real.openSync as (...a: unknown[]) => unknown)(...args);
  };
  return { ...real, open, openSync, default: { ...real, open, openSync } };
});

// The calls that use a checked path; lstat, stat and realpath (the checks themselves) are not.
const USES = new Set([
  'open',
  'fs.open',
  'fs.openSync',
  'opendir',
  'readdir',
  'rename',
  'mkdir',
  'rm',
  'rmdir',
  'unlink',
  'cp',
]);

/** Arms a swap of `dir` for a link to `target`, right before the first use (after `skip` uses). */
function armSwap(dir: string, target: string, options: Partial<Omit<Trap, 'act'>> = {}): void {
  race.trap = {
    when: options.when ?? ((name) => USES.has(name)),
    skip: options.skip ?? 0,
    act: () => {
      renameSync(dir, `${dir}_old`);
      symlinkSync(target, dir);
    },
  };
}

function disarm(): number {
  race.trap = undefined;
  const fired = race.fired;
  race.fired = 0;
  return fired;
}

// ---------------------------------------------------------------------------------------------
// Shared checks.

const SECRETS = ['top secret', 'hunter2', 'PRIVATE KEY', 'outside-only'];

/** The decoded bytes of every base64 `data` or `blob` field in a result (media, resource blobs). */
function decodedPayloads(value: unknown): string {
  if (Array.isArray(value)) return value.map(decodedPayloads).join('\n');
  if (!value || typeof value !== 'object') return '';
  return Object.entries(value)
    .map(([key, v]) =>
      (key === 'data' || key === 'blob') && typeof v === 'string'
        ? Buffer.from(v, 'base64').toString('latin1')
        : decodedPayloads(v),
    )
    .join('\n');
}

/** Asserts an attack result leaked nothing: no secret, no host path outside, no stack, no crash text. */
function expectNoLeak(w: World, result: unknown, args: unknown): void {
  const json = JSON.stringify(result);
  const payloads = decodedPayloads(result);
  for (const secret of SECRETS) {
    expect(json).not.toContain(secret);
    expect(payloads).not.toContain(secret);
  }
  const inputs = stringsIn(args);
  expect(leakedPaths(stringsIn(result).join('\n'), w.outside, inputs)).toEqual([]);
  const text = textOf(result as { content?: unknown });
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toContain('internal error');
}

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** No regular file under `dir` holds an outside secret: nothing was copied or moved in. */
function expectNothingPulledIn(dir: string): void {
  const visit = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const info = lstatSync(path);
      if (info.isDirectory()) visit(path);
      else if (info.isFile()) {
        const text = readFileSync(path, 'latin1');
        for (const secret of SECRETS) expect(text, path).not.toContain(secret);
      }
    }
  };
  visit(dir);
}

const since = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
};

// ---------------------------------------------------------------------------------------------
// 1. Inputs a model can send, in both eras.

interface Attack {
  name: string;
  tool: string;
  args: (w: World) => Record<string, unknown>;
  /** Harmless success is allowed (the link itself is deleted, not what it points to). */
  maySucceed?: boolean;
}

const ATTACKS: Attack[] = [
  // Secrets under other spellings and through links
  {
    name: '.env with a trailing space',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, '.env ') }),
  },
  {
    name: '.Env.Local (case)',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, '.Env.Local') }),
  },
  {
    name: 'a link with an innocent name to .ssh',
    tool: 'list_directory',
    args: (w) => ({ path: join(w.allowed, 'keys') }),
  },
  {
    name: '.ssh/ as a directory path',
    tool: 'list_directory',
    args: (w) => ({ path: `${w.allowed}/.ssh/` }),
  },
  {
    name: 'info on a key in .ssh',
    tool: 'get_file_info',
    args: (w) => ({ path: join(w.allowed, '.ssh', 'id_rsa') }),
  },
  {
    name: 'a key read through the .ssh link',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, 'keys', 'id_rsa') }),
  },
  {
    name: 'copy .env to an innocent name',
    tool: 'copy_file',
    args: (w) => ({ source: join(w.allowed, '.env'), destination: join(w.allowed, 'plain.txt') }),
  },
  {
    name: 'rename .ssh as a whole',
    tool: 'move_file',
    args: (w) => ({ source: join(w.allowed, '.ssh'), destination: join(w.allowed, 'ssh-old') }),
  },
  {
    name: 'move a file into .ssh',
    tool: 'move_file',
    args: (w) => ({
      source: join(w.allowed, 'a.txt'),
      destination: join(w.allowed, '.ssh', 'authorized_keys'),
    }),
  },
  {
    name: 'write authorized_keys',
    tool: 'write_file',
    args: (w) => ({
      path: join(w.allowed, '.ssh', 'authorized_keys'),
      content: 'ssh-ed25519 AAAA',
      confirm: true,
    }),
  },
  { name: 'create .aws/x', tool: 'create_directory', args: (w) => ({ path: join(w.allowed, '.aws', 'x') }) },
  {
    name: 'delete .env',
    tool: 'delete_file',
    args: (w) => ({ path: join(w.allowed, '.env'), confirm: true }),
  },
  {
    name: 'edit .env through a link',
    tool: 'edit_file',
    args: (w) => ({ path: join(w.allowed, 'notes.txt'), edits: [{ oldText: 'TOKEN', newText: 'X' }] }),
  },
  {
    name: 'patch .env',
    tool: 'apply_patch',
    args: () => ({ patch: '--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-TOKEN=hunter2\n+X\n' }),
  },
  // Special files
  {
    name: 'read_media_file on a FIFO named .png',
    tool: 'read_media_file',
    args: (w) => ({ path: join(w.allowed, 'p.png') }),
  },
  { name: 'read a Unix socket', tool: 'read_text_file', args: (w) => ({ path: join(w.allowed, 'sock') }) },
  {
    name: 'copy a FIFO',
    tool: 'copy_file',
    args: (w) => ({ source: join(w.allowed, 'p.png'), destination: join(w.allowed, 'q.png') }),
  },
  // URIs and normalisation
  {
    name: 'file:// URI with %2e%2e',
    tool: 'read_text_file',
    args: (w) => ({ path: `${pathToFileURL(w.allowed).href}/%2e%2e/outside/secret.txt` }),
  },
  {
    name: 'file:// URI with %2E%2E and an encoded slash',
    tool: 'read_text_file',
    args: (w) => ({ path: `${pathToFileURL(w.allowed).href}/%2E%2E%2Foutside%2Fsecret.txt` }),
  },
  {
    name: 'file:// URI on another host',
    tool: 'read_text_file',
    args: (w) => ({ path: `file://evil.example${w.allowed}/a.txt` }),
  },
  {
    name: 'file:// URI with %00',
    tool: 'read_text_file',
    args: (w) => ({ path: `${pathToFileURL(w.allowed).href}/a.txt%00.png` }),
  },
  {
    name: 'file://localhost to outside',
    tool: 'read_text_file',
    args: (w) => ({ path: `file://localhost${w.outside}/secret.txt` }),
  },
  { name: '~name (another user)', tool: 'read_text_file', args: () => ({ path: '~root/../../etc/passwd' }) },
  {
    name: 'U+2028 and a bidi override in a path',
    tool: 'read_text_file',
    args: (w) => ({ path: `${w.allowed}/a\u2028b\u202Etxt.exe` }),
  },
  // Links and trees
  {
    name: 'delete a directory link recursively (the link goes, the target stays)',
    tool: 'delete_file',
    args: (w) => ({ path: join(w.allowed, 'd'), recursive: true, confirm: true }),
    maySucceed: true,
  },
  {
    name: 'delete the root with a trailing slash',
    tool: 'delete_file',
    args: (w) => ({ path: `${w.allowed}/`, recursive: true, confirm: true }),
  },
  {
    name: 'delete the root as "sub/.."',
    tool: 'delete_file',
    args: () => ({ path: 'tree/..', recursive: true, confirm: true }),
  },
  {
    name: 'move a directory into itself through a link',
    tool: 'move_file',
    args: (w) => ({ source: join(w.allowed, 'tree'), destination: join(w.allowed, 'via', 'inner', 'x') }),
  },
  {
    name: 'patch with cwd through a link to outside',
    tool: 'apply_patch',
    args: (w) => ({
      cwd: join(w.allowed, 'd'),
      patch: '--- a/secret.txt\n+++ b/secret.txt\n@@ -1 +1 @@\n-top secret\n+pwned\n',
    }),
  },
  {
    name: 'tree over a link to outside',
    tool: 'directory_tree',
    args: (w) => ({ path: w.allowed }),
    maySucceed: true,
  },
  {
    name: 'search_content for the outside secret',
    tool: 'search_content',
    args: (w) => ({ path: w.allowed, query: 'op secre' }),
    maySucceed: true,
  },
  {
    name: 'search_files through a link',
    tool: 'search_files',
    args: (w) => ({ path: w.allowed, pattern: '**/secret.txt' }),
    maySucceed: true,
  },
  // Existence probes through a link that leads out (finding: they used to answer differently)
  {
    name: 'probe: a file behind the outward link',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, 'd', 'secret.txt', 'x') }),
  },
  {
    name: 'probe: a directory behind the outward link',
    tool: 'write_file',
    args: (w) => ({ path: join(w.allowed, 'd', 'dir', 'x', 'y'), content: 'x' }),
  },
];

function setUpCorpus(w: World): Promise<Server> {
  const a = w.allowed;
  writeFileSync(join(a, 'a.txt'), 'a\n');
  writeFileSync(join(a, '.env'), 'TOKEN=hunter2\n');
  writeFileSync(join(a, '.env '), 'TOKEN=hunter2\n');
  writeFileSync(join(a, '.Env.Local'), 'TOKEN=hunter2\n');
  mkdirSync(join(a, '.ssh'));
  writeFileSync(join(a, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  symlinkSync(join(a, '.ssh'), join(a, 'keys'));
  symlinkSync(w.outside, join(a, 'd'));
  symlinkSync(join(a, '.env'), join(a, 'notes.txt'));
  mkdirSync(join(a, 'tree', 'inner'), { recursive: true });
  writeFileSync(join(a, 'tree', 'inner', 'f.txt'), 'f\n');
  symlinkSync(join(a, 'tree'), join(a, 'via'));
  mkdirSync(join(w.outside, 'dir'));
  writeFileSync(join(w.outside, 'dir', 'outside-only.txt'), 'outside-only\n');
  execFileSync('mkfifo', [join(a, 'p.png')]);
  const server = createServer();
  return new Promise((resolve) => server.listen(join(a, 'sock'), () => resolve(server)));
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

// ---------------------------------------------------------------------------------------------
// 2. Client roots never widen the ceiling; --read-only leaves nothing that writes.

describe('review corpus: roots and read-only', () => {
  let w: World;
  let app: App;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, 'a.txt'), 'a\n');
    symlinkSync(w.outside, join(w.allowed, 'out'));
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      ['file:/// (everything)', () => ['file:///']],
      ['a parent of the ceiling', () => [w.base]],
      ['the ceiling plus outside', () => [w.allowed, w.outside]],
    ])('a client root that is %s narrows to the ceiling at most', async (_label, roots) => {
      const session = await connect(app, { era, roots: roots() });
      try {
        const listed = await session.callTool('list_allowed_directories');
        expect((listed.structuredContent as { directories: string[] }).directories).toEqual([w.allowed]);
        const read = await session.callTool('read_text_file', { path: join(w.outside, 'secret.txt') });
        expect(read.isError).toBe(true);
        expectNoLeak(w, read, [join(w.outside, 'secret.txt')]);
      } finally {
        await session.close();
      }
    });

    it.each([
      ['a link inside the ceiling to outside', () => [join(w.allowed, 'out')]],
      ['only outside', () => [w.outside]],
    ])('a client root that is %s allows nothing', async (_label, roots) => {
      const session = await connect(app, { era, roots: roots() });
      try {
        for (const path of [join(w.allowed, 'a.txt'), join(w.allowed, 'out', 'secret.txt')]) {
          const read = await session.callTool('read_text_file', { path });
          expect(read.isError).toBe(true);
          expectNoLeak(w, read, [path]);
        }
      } finally {
        await session.close();
      }
    });
  });

  it('--read-only offers no tool that writes, and refuses one called anyway', async () => {
    const ro = createFilesystemApp({ roots: await RootSet.create([w.allowed]), readOnly: true });
    for (const era of ['legacy', 'modern'] as const) {
      const session = await connect(ro, { era });
      try {
        const { tools } = await session.client.listTools();
        for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
        const before = await treeHash(w.allowed);
        const write = await session.client
          .callTool({
            name: 'write_file',
            arguments: { path: join(w.allowed, 'n.txt'), content: 'x', confirm: true },
          })
          .catch((e: unknown) => ({ isError: true, content: [{ type: 'text', text: String(e) }] }));
        expect(write.isError).toBe(true);
        expect(await treeHash(w.allowed)).toBe(before);
      } finally {
        await session.close();
      }
    }
    await ro.close();
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Output bombs stay within the output limit.

describe('review corpus: output bombs', () => {
  const LIMIT = 64 * 1024;
  let w: World;
  let app: App;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, 'line.txt'), 'x'.repeat(10 * 1024 * 1024));
    writeFileSync(join(w.allowed, 'min.js'), 'needle;'.repeat(280_000));
    let deep = w.allowed;
    for (let i = 0; i < 300; i++) deep = join(deep, 'x');
    mkdirSync(deep, { recursive: true });
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]), outputLimitBytes: LIMIT });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      ['a 10 MiB single line', 'read_text_file', () => ({ path: 'line.txt' })],
      [
        'the same 10 MiB file 100 times',
        'read_multiple_files',
        () => ({ paths: Array(100).fill('line.txt') }),
      ],
      [
        'a minified file with a hit on every column',
        'search_content',
        () => ({ path: '.', query: 'needle', contextLines: 10 }),
      ],
      [
        'a tree 300 levels deep',
        'directory_tree',
        () => ({ path: '.', maxDepth: 10_000, maxEntries: 50_000 }),
      ],
      ['search_files over the deep tree', 'search_files', () => ({ path: '.', pattern: '**/x' })],
    ])('%s (%s)', async (_label, tool, args) => {
      const session = await connect(app, { era });
      try {
        const result = await session.callTool(tool, args());
        const bytes =
          Buffer.byteLength(textOf(result)) +
          Buffer.byteLength(JSON.stringify(result.structuredContent ?? {}));
        expect(bytes).toBeLessThanOrEqual(2 * LIMIT);
        expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(LIMIT);
      } finally {
        await session.close();
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Finding: globs and .gitignore rules ran as backtracking regexes on the server's only thread.

describe('finding: glob and .gitignore patterns cannot stall the server', () => {
  let w: World;
  let app: App;
  const STARS = `${'*a'.repeat(12)}*b`;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, 'a'.repeat(36)), 'needle\n');
    // A chain of 150 directories with a file on every level: the rule below then backtracks on each
    // of them (about eight seconds in all with a regex; the real attack goes deeper and never ends).
    const deep = join(w.allowed, 'deep');
    let level = deep;
    for (let i = 0; i < 150; i++) {
      level = join(level, 'x');
      mkdirSync(level, { recursive: true });
      writeFileSync(join(level, 'z'), '');
    }
    writeFileSync(join(deep, '.gitignore'), '**/x/**/x/**/x/**/y\n');
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      ['search_files pattern', 'search_files', () => ({ path: '.', pattern: STARS })],
      [
        'directory_tree excludePatterns',
        'directory_tree',
        () => ({ path: '.', excludePatterns: [STARS], maxDepth: 1 }),
      ],
      ['search_content include', 'search_content', () => ({ path: '.', query: 'needle', include: STARS })],
      [
        'search_files excludePatterns with a path glob',
        'search_files',
        () => ({ path: 'deep', pattern: 'y', excludePatterns: ['**/x/**/x/**/x/**/y'] }),
      ],
      [
        'a hostile .gitignore over a deep tree',
        'search_files',
        () => ({ path: 'deep', pattern: 'y', respectGitignore: true }),
      ],
    ])('%s answers at once', async (_label, tool, args) => {
      const session = await connect(app, { era });
      try {
        const { value: result, ms } = await since(() => session.callTool(tool, args()));
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(ms).toBeLessThan(2500);
      } finally {
        await session.close();
      }
    });
  });

  it('refuses a pattern whose {…} groups would expand past the cap, in one sentence', async () => {
    const session = await connect(app, { era: 'legacy' });
    try {
      const result = await session.callTool('search_files', { path: '.', pattern: '{a,b}'.repeat(8) });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`more than ${MAX_ALTERNATIVES} alternatives`);
    } finally {
      await session.close();
    }
  });
});

describe('glob matching without regexes', () => {
  const paths = [
    'a.ts',
    'src/a.ts',
    'src/deep/b.test.ts',
    '.env.example',
    'x/.npmrc',
    'node_modules',
    'packages/a/node_modules',
    'logs/x.log',
    'src/gen',
    'src/gen/a.ts',
    'README.md',
    'docs/guide.md',
    'a[1].txt',
    'file (1).txt',
    'ab',
    'abc/def/ghi',
    'Makefile',
  ];
  const patterns = [
    '*.ts',
    '**/*.ts',
    'src/*.ts',
    'src/**/*.test.ts',
    '*',
    '.*rc',
    'node_modules',
    '*.log',
    'src/gen/**',
    '**/gen',
    '?.ts',
    '[ab]*',
    '[^a]*',
    '[a-c]?',
    '*.{ts,md}',
    '{src,docs}/**',
    'a\\[1\\].txt',
    '**',
    'abc/**/ghi',
    '**/def/**',
    'M*file',
  ];
  it.each(patterns)('matches like picomatch for %s', (pattern) => {
    const ours = compileGlobTest(pattern);
    const theirs = picomatch(pattern, { dot: true });
    for (const path of paths) expect(ours(path), `${pattern} vs ${path}`).toBe(theirs(path));
  });

  it('keeps compileGlob rules: names at any depth, anchors, directories only, substring words', () => {
    expect(compileGlob('*.ts')('src/deep/a.ts', 'a.ts', false)).toBe(true);
    expect(compileGlob('/*.ts')('src/a.ts', 'a.ts', false)).toBe(false);
    expect(compileGlob('build/')('a/build', 'build', false)).toBe(false);
    expect(compileGlob('Config', { substring: true })('x/app.config.ts', 'app.config.ts', false)).toBe(true);
    expect(compileGlob('!*.ts')('a.md', 'a.md', false)).toBe(true);
    // `[!a]` negates, as in git and the shell (picomatch reads it as the class of "!" and "a").
    expect(compileGlobTest('[!a]*')('b.ts')).toBe(true);
    expect(compileGlobTest('[!a]*')('a.ts')).toBe(false);
  });

  it('expands braces, ranges and nested groups, and refuses too many', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('v{1..3}')).toEqual(['v1', 'v2', 'v3']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(() => expandBraces('{1..100}')).toThrow(/alternatives/);
    expect(() => expandBraces('{a,b}'.repeat(7))).toThrow(/alternatives/);
  });

  it('stays fast on the worst inputs: 255-character names, 2000-level paths, 1000-character patterns', () => {
    const name = 'a'.repeat(255);
    const path = Array(2000).fill('x').join('/');
    const cases: [string, string][] = [
      [`${'*a'.repeat(400)}*b`, name],
      [`${'**/x/'.repeat(150)}y`, path],
      [`${'**/*x*/'.repeat(120)}y`, path],
      [`${'?*'.repeat(400)}b`, name],
    ];
    for (const [pattern, input] of cases) {
      const test = compileGlobTest(pattern);
      const { ms } = (() => {
        const start = performance.now();
        test(input);
        return { ms: performance.now() - start };
      })();
      expect(ms, pattern.slice(0, 20)).toBeLessThan(1000);
    }
  });
});

describe('.gitignore rules without regexes', () => {
  const files = [
    '*.log\n!keep.log\nbuild/\n',
    '/root.txt\ndocs/*.md\n**/gen/**\n',
    'a/**/b\n# comment\n\\#hash\n\\!bang\nspace\\ \n',
    '*.tmp\n!important.tmp\nout\n/deep/x/\n',
  ];
  const paths = [
    'x.log',
    'keep.log',
    'a/keep.log',
    'build/',
    'build/x.js',
    'src/build/',
    'root.txt',
    'sub/root.txt',
    'docs/a.md',
    'docs/sub/a.md',
    'src/gen/x.ts',
    'src/gen/',
    'a/b',
    'a/x/y/b',
    '#hash',
    '!bang',
    'space ',
    'space',
    'x.tmp',
    'important.tmp',
    'out',
    'out/',
    'deep/x/',
    'other/deep/x/',
    'BUILD/',
  ];
  it.each(files)('decides like the ignore package for %j', (text) => {
    const ours = new GitignoreRules(text);
    const theirs = ignore({ allowRelativePaths: true }).add(text);
    for (const path of paths) {
      const a = ours.test(path);
      const b = theirs.test(path);
      expect({ ignored: a.ignored, unignored: a.unignored }, `${JSON.stringify(text)} vs ${path}`).toEqual({
        ignored: b.ignored,
        unignored: b.unignored,
      });
    }
  });

  it('stays fast on a hostile rule over a 2000-level path', () => {
    const rules = new GitignoreRules(`${'**/x/'.repeat(100)}y\n${'*a'.repeat(100)}*b\n`);
    const start = performance.now();
    rules.test(`${Array(2000).fill('x').join('/')}/`);
    rules.test('a'.repeat(255));
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Findings: a directory swapped for a link between the check and the use (TOCTOU).

/** A world for one race: allowed/sub mirrors outside, and `sub` will become a link to outside. */
async function raceWorld() {
  const w = await world();
  const a = w.allowed;
  writeFileSync(join(a, 'a.txt'), 'a\n');
  mkdirSync(join(a, 'sub', 'dir'), { recursive: true });
  writeFileSync(join(a, 'sub', 'f.txt'), 'shared line\n');
  writeFileSync(join(a, 'sub', 'secret.txt'), 'harmless\n');
  writeFileSync(join(a, 'sub', 'dir', 'keep.txt'), 'inside\n');
  writeFileSync(join(w.outside, 'f.txt'), 'shared line\n');
  mkdirSync(join(w.outside, 'dir'));
  writeFileSync(join(w.outside, 'dir', 'keep.txt'), 'outside-only\n');
  writeFileSync(join(w.outside, 'outside-only.txt'), 'outside-only\n');
  const app = createFilesystemApp({ roots: await RootSet.create([a]) });
  const outsideHash = await treeHash(w.outside);
  return { w, app, outsideHash, sub: join(a, 'sub') };
}

interface Race {
  name: string;
  tool: string;
  args: (w: World) => Record<string, unknown>;
  /** Which use to race (default: the first call that uses the checked path). */
  trap?: Partial<Omit<Trap, 'act'>>;
}

const RACES: Race[] = [
  { name: 'write a new file', tool: 'write_file', args: () => ({ path: 'sub/new.txt', content: 'pwned' }) },
  {
    name: 'overwrite a file',
    tool: 'write_file',
    args: () => ({ path: 'sub/f.txt', content: 'pwned', confirm: true }),
  },
  {
    name: 'edit a file',
    tool: 'edit_file',
    args: () => ({ path: 'sub/f.txt', edits: [{ oldText: 'shared', newText: 'pwned' }] }),
  },
  { name: 'read a file', tool: 'read_text_file', args: () => ({ path: 'sub/secret.txt' }) },
  {
    name: 'read a file among several',
    tool: 'read_multiple_files',
    args: () => ({ paths: ['sub/secret.txt'] }),
  },
  {
    name: 'read a media file',
    tool: 'read_media_file',
    args: (w) => {
      writeFileSync(join(w.allowed, 'sub', 'i.png'), 'harmless');
      writeFileSync(join(w.outside, 'i.png'), 'top secret');
      return { path: 'sub/i.png' };
    },
  },
  {
    name: 'copy into the directory',
    tool: 'copy_file',
    args: () => ({ source: 'a.txt', destination: 'sub/c.txt' }),
  },
  {
    name: 'copy out of the directory',
    tool: 'copy_file',
    args: () => ({ source: 'sub/secret.txt', destination: 'copied.txt' }),
  },
  {
    name: 'move a file into the directory',
    tool: 'move_file',
    args: () => ({ source: 'a.txt', destination: 'sub/a.txt' }),
  },
  {
    name: 'move a file out of the directory',
    tool: 'move_file',
    args: () => ({ source: 'sub/f.txt', destination: 'pulled.txt' }),
  },
  { name: 'delete a file', tool: 'delete_file', args: () => ({ path: 'sub/f.txt', confirm: true }) },
  {
    name: 'delete a directory recursively',
    tool: 'delete_file',
    args: () => ({ path: 'sub/dir', recursive: true, confirm: true }),
  },
  { name: 'create directories', tool: 'create_directory', args: () => ({ path: 'sub/new/deeper' }) },
  {
    name: 'patch: create a file',
    tool: 'apply_patch',
    args: () => ({ patch: '--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1 @@\n+pwned\n' }),
  },
  {
    name: 'patch: delete a file',
    tool: 'apply_patch',
    args: () => ({ patch: '--- a/sub/f.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-shared line\n', confirm: true }),
  },
  {
    name: 'tree: a subdirectory swapped before it is listed',
    tool: 'directory_tree',
    args: () => ({ path: '.' }),
    // The root's listing is the first use; the subdirectory's is the second.
    trap: {
      when: (name, args) =>
        (name === 'readdir' || name === 'fs.open' || name === 'fs.openSync') &&
        !String(args[0]).startsWith('/proc/'),
      skip: 1,
    },
  },
  {
    name: 'search_files: a subdirectory swapped before it is listed',
    tool: 'search_files',
    args: () => ({ path: '.', pattern: '*' }),
    trap: {
      when: (name, args) =>
        (name === 'readdir' || name === 'fs.open' || name === 'fs.openSync') &&
        !String(args[0]).startsWith('/proc/'),
      skip: 1,
    },
  },
  {
    name: 'sizes: a subdirectory swapped before it is listed',
    tool: 'list_directory_with_sizes',
    args: () => ({ path: 'sub' }),
  },
];

describe.each(['legacy', 'modern'] as const)(
  'finding: parent swapped for a link mid-operation (%s era)',
  (era: Era) => {
    it.each(RACES)('$name ($tool)', async (race) => {
      const { w, app, sub } = await raceWorld();
      const session = await connect(app, { era });
      try {
        const args = race.args(w);
        const hashBefore = await treeHash(w.outside);
        armSwap(sub, w.outside, race.trap);
        const result = await session.callTool(race.tool, args);
        expect(disarm(), 'the swap ran').toBe(1);
        expectNoLeak(w, result, args);
        expect(await treeHash(w.outside)).toBe(hashBefore);
        // Nothing came in from outside either, and the directory that was checked is still inside.
        expectNothingPulledIn(w.allowed);
        expect(syncExists(join(w.allowed, 'sub_old'))).toBe(true);
      } finally {
        disarm();
        await session.close();
        await app.close();
        await w.cleanup();
      }
    });

    it('writes into the directory that was checked when it is swapped after being pinned', async () => {
      const { w, app, outsideHash, sub } = await raceWorld();
      const session = await connect(app, { era });
      try {
        // The first use pins the directory; the swap comes right after it.
        armSwap(sub, w.outside, { skip: 1 });
        const result = await session.callTool('write_file', { path: 'sub/new.txt', content: 'kept inside' });
        expect(disarm()).toBe(1);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(await treeHash(w.outside)).toBe(outsideHash);
        expect(await readFile(join(w.allowed, 'sub_old', 'new.txt'), 'utf8')).toBe('kept inside');
      } finally {
        disarm();
        await session.close();
        await app.close();
        await w.cleanup();
      }
    });
  },
);

describe('finding: a subdirectory swapped for a link while a tree is removed', () => {
  it('removes the link, never what it points to', async () => {
    const w = await world();
    try {
      const victim = join(w.allowed, 'victim');
      mkdirSync(join(victim, 'inner'), { recursive: true });
      writeFileSync(join(victim, 'inner', 'a.txt'), 'a');
      writeFileSync(join(victim, 'z.txt'), 'z');
      mkdirSync(join(w.outside, 'dir'));
      writeFileSync(join(w.outside, 'dir', 'keep.txt'), 'outside-only');
      const before = await treeHash(w.outside);
      // Between the lstat that finds `inner` a directory and the open that enters it.
      race.trap = {
        when: (name, args) => name === 'open' && String(args[0]).endsWith('/inner'),
        skip: 0,
        act: () => {
          renameSync(join(victim, 'inner'), join(w.allowed, 'moved-inner'));
          symlinkSync(join(w.outside, 'dir'), join(victim, 'inner'));
        },
      };
      const dir = await PinnedDir.open(w.allowed, 'allowed');
      try {
        await removeTree(dir, 'victim');
      } finally {
        await dir.close();
      }
      expect(disarm()).toBe(1);
      expect(syncExists(victim)).toBe(false);
      expect(await treeHash(w.outside)).toBe(before);
    } finally {
      disarm();
      await w.cleanup();
    }
  });
});

describe('finding: search_content reads a file through a directory swapped after the walk', () => {
  it('refuses it even when the link stays inside the root (here, into .ssh)', async () => {
    const w = await world();
    try {
      const a = w.allowed;
      mkdirSync(join(a, 'sub'));
      writeFileSync(join(a, 'sub', 'config'), 'Host example\n');
      mkdirSync(join(a, '.ssh'));
      writeFileSync(join(a, '.ssh', 'config'), 'PRIVATE KEY\n');
      // The walk listed sub/config; then sub became a link to .ssh, which the walk had left out.
      renameSync(join(a, 'sub'), join(a, 'sub_old'));
      symlinkSync(join(a, '.ssh'), join(a, 'sub'));
      const config = {
        ...compileQuery('KEY', false, false),
        contextLines: 0,
        maxFileBytes: 1 << 20,
        maxLineChars: 300,
        root: a,
      };
      const result = searchFile(
        { id: 0, path: join(a, 'sub', 'config'), skip: 0, limit: 10 },
        lineTest(config),
        config,
      );
      expect(result.hits).toEqual([]);
      expect(result.skipped).toBe('unreadable');
    } finally {
      await w.cleanup();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Smaller findings.

describe.each(['legacy', 'modern'] as const)('finding: what a confirmation names (%s era)', (era: Era) => {
  let w: World;
  let app: App;
  beforeAll(async () => {
    w = await world();
    await mkdir(join(w.allowed, 'src'));
    await mkdir(join(w.allowed, 'tmp'));
    await writeFile(join(w.allowed, 'src', 'main.ts'), 'main\n');
    await symlink(join(w.allowed, 'src', 'main.ts'), join(w.allowed, 'notes.txt'));
    await writeFile(join(w.allowed, 'a\u202Etxt.exe'), 'x\n');
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  const ask = async (tool: string, args: Record<string, unknown>) => {
    const asked: string[] = [];
    const session = await connect(app, {
      era,
      elicitation: (params) => {
        asked.push(params.message);
        return { action: 'decline' };
      },
    });
    try {
      const before = await treeHash(w.allowed);
      const result = await session.callTool(tool, args);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await treeHash(w.allowed)).toBe(before);
      return asked;
    } finally {
      await session.close();
    }
  };

  it('names the real file when the path goes through a link', async () => {
    const asked = await ask('write_file', { path: 'notes.txt', content: 'pwned' });
    expect(asked[0]).toContain('"notes.txt"');
    expect(asked[0]).toContain('allowed/src/main.ts');
  });

  it('names the real directory when the path uses ..', async () => {
    const asked = await ask('delete_file', { path: 'tmp/../src', recursive: true });
    expect(asked[0]).toContain('allowed/src');
  });

  it('names the real files of a copy and a move', async () => {
    await writeFile(join(w.allowed, 'other.txt'), 'other\n');
    const copy = await ask('copy_file', { source: 'other.txt', destination: 'notes.txt', overwrite: true });
    expect(copy[0]).toContain('allowed/src/main.ts');
    const move = await ask('move_file', { source: 'other.txt', destination: 'notes.txt', overwrite: true });
    expect(move[0]).toContain('allowed/src/main.ts');
  });

  it('escapes a bidi override so the question reads as what it is', async () => {
    const asked = await ask('write_file', { path: 'a\u202Etxt.exe', content: 'pwned' });
    expect(asked[0]).not.toContain('\u202E');
    expect(asked[0]).toContain('\\u202e');
  });
});

describe('finding: setuid and setgid do not survive a rewrite', () => {
  let w: World;
  let app: App;
  let session: TestSession;
  beforeAll(async () => {
    w = await world();
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
    session = await connect(app, { era: 'legacy' });
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    await w.cleanup();
  });

  it.each([
    ['write_file', (p: string) => ({ path: p, content: '#!/bin/sh\nid\n', confirm: true })],
    ['edit_file', (p: string) => ({ path: p, edits: [{ oldText: 'true', newText: 'id' }] })],
    ['copy_file', (p: string) => ({ source: 'plain.sh', destination: p, overwrite: true, confirm: true })],
    [
      'apply_patch',
      (p: string) => ({ patch: `--- a/${p}\n+++ b/${p}\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-true\n+id\n` }),
    ],
  ])('%s keeps the permission bits and drops setuid/setgid', async (tool, args) => {
    const name = `${tool}.sh`;
    const path = join(w.allowed, name);
    await writeFile(path, '#!/bin/sh\ntrue\n');
    await writeFile(join(w.allowed, 'plain.sh'), '#!/bin/sh\nid\n');
    await chmod(path, 0o6755);
    expect((await stat(path)).mode & 0o7777).toBe(0o6755);
    const result = await session.callTool(tool, args(name));
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((await stat(path)).mode & 0o7777).toBe(0o755);
  });
});

describe('finding: apply_patch reads "~" and "file:" in relative names literally', () => {
  it('creates the file the patch names, not one in the home directory', async () => {
    const w = await world();
    const home = join(w.base, 'home');
    await mkdir(home);
    await mkdir(join(w.allowed, '~'));
    const app = createFilesystemApp({ roots: await RootSet.create([w.allowed, home], { home }) });
    const session = await connect(app, { era: 'legacy' });
    try {
      const before = await treeHash(home);
      const patch = '--- /dev/null\n+++ b/~/x.txt\n@@ -0,0 +1 @@\n+hi\n';
      const result = await session.callTool('apply_patch', { patch });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await readFile(join(w.allowed, '~', 'x.txt'), 'utf8')).toBe('hi\n');
      expect(await treeHash(home)).toBe(before);
    } finally {
      await session.close();
      await app.close();
      await w.cleanup();
    }
  });
});

describe('pinned directories', () => {
  it('refuse a directory reached through a component swapped for a link', async () => {
    const w = await world();
    try {
      const dir = join(w.allowed, 'sub', 'dir');
      mkdirSync(dir, { recursive: true });
      mkdirSync(join(w.outside, 'dir'));
      renameSync(join(w.allowed, 'sub'), join(w.allowed, 'sub_old'));
      symlinkSync(w.outside, join(w.allowed, 'sub'));
      await expect(PinnedDir.open(dir, 'allowed/sub/dir')).rejects.toThrow(/changed on disk/);
      await expect(PinnedDir.open(join(w.allowed, 'sub'), 'allowed/sub')).rejects.toThrow(/changed on disk/);
      const fine = await PinnedDir.open(join(w.allowed, 'sub_old'), 'allowed/sub_old');
      expect(realpathSync(fine.path)).toBe(join(w.allowed, 'sub_old'));
      await fine.close();
    } finally {
      await w.cleanup();
    }
  });
});
