/**
 * `mcpkit-bundle release` on a built package: the `.mcpb` holds what the bin needs and nothing a
 * host has no use for, server.json carries its real hash, and a package the registry would refuse
 * gets one sentence and no files.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackExtension } from '@anthropic-ai/mcpb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../bin/mcpkit-bundle.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let pkg: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(pkg, path)), { recursive: true });
  writeFileSync(join(pkg, path), text);
}

const MANIFEST = {
  name: '@acme/server-notes',
  version: '2.0.0',
  description: 'Notes for agents.',
  mcpName: 'io.github.acme/notes',
  license: 'MIT',
  type: 'module',
  repository: { type: 'git', url: 'git+https://github.com/acme/tools.git', directory: 'servers/notes' },
  engines: { node: '>=20.19' },
  bin: { 'acme-notes': './dist/bin.js' },
};

/** A package as its build leaves it: dist/ with the bin, its description, types and maps. */
beforeEach(() => {
  pkg = mkdtempSync(join(tmpdir(), 'release-'));
  write('package.json', JSON.stringify(MANIFEST));
  write('dist/bin.js', "#!/usr/bin/env node\nconsole.log('notes');\n");
  write('dist/worker.js', "console.log('worker');\n");
  write('dist/bin.d.ts', 'export {};\n');
  write('dist/bin.js.map', '{}\n');
  write('dist/.tsbuildinfo', '{}\n');
  write(
    'dist/cli.js',
    `export const cli = {
  bin: 'acme-notes', usage: '<dir>',
  positionals: { name: 'dir', description: 'a notes folder', required: true, repeated: false },
  settings: {
    dir: { title: 'Folder', description: 'Notes.', type: 'directory', required: true, fills: 'positionals' },
    read_only: { title: 'Read-only', description: 'Change nothing.', type: 'boolean', fills: { flag: 'read-only' } },
  },
  create() { throw new Error('not started at build time'); },
};\n`,
  );
  write(
    'dist/tools/index.js',
    "export const tools = [{ name: 'read_note', title: 'Read', description: 'Reads.' }];\n",
  );
  write('LICENSE', 'MIT\n');
  write('README.md', '# Notes\n');
  copyFileSync(join(ROOT, 'servers', 'example', 'icon.png'), join(pkg, 'icon.png'));
  // The toolkit the package would have installed, so the variable names are the real ones.
  mkdirSync(join(pkg, 'node_modules', '@mcpkit'), { recursive: true });
  symlinkSync(join(ROOT, 'packages', 'core'), join(pkg, 'node_modules', '@mcpkit', 'core'), 'dir');
});

afterEach(() => rmSync(pkg, { recursive: true, force: true }));

function release(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'release', ...args], {
    cwd: pkg,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('mcpkit-bundle release', () => {
  it('writes the bundle and server.json into release/, with the bundle’s real hash', async () => {
    const result = release();
    expect(result.status, result.stderr).toBe(0);
    const file = join(pkg, 'release', 'acme-notes-2.0.0.mcpb');
    const serverJson = JSON.parse(readFileSync(join(pkg, 'release', 'server.json'), 'utf8'));
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(serverJson.packages[1].fileSha256).toBe(sha);
    expect(result.stdout).toContain(sha);
    expect(existsSync(join(pkg, 'dist', 'manifest.json'))).toBe(false);

    const out = join(pkg, 'unpacked');
    expect(await unpackExtension({ mcpbPath: file, outputDir: out, silent: true })).toBe(true);
    const files = (readdirSync(out, { recursive: true }) as string[])
      .filter((f) => statSync(join(out, f)).isFile())
      .map((f) => f.split('\\').join('/'))
      .sort();
    expect(files).toEqual([
      'LICENSE',
      'README.md',
      'dist/bin.js',
      'dist/cli.js',
      'dist/tools/index.js',
      'dist/worker.js',
      'icon.png',
      'manifest.json',
      'package.json',
    ]);
    const staged = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'));
    expect(staged).toMatchObject({ name: MANIFEST.name, version: '2.0.0', type: 'module' });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.server.mcp_config.env).toEqual({ MCPKIT_READ_ONLY: `\${user_config.read_only}` });
  });

  it('writes where --out says', () => {
    const result = release('--out', 'elsewhere');
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(join(pkg, 'elsewhere')).sort()).toEqual(['acme-notes-2.0.0.mcpb', 'server.json']);
  });

  it.each([
    ['no mcpName', { mcpName: undefined }, 'package.json has no mcpName; add one such as'],
    ['a long description', { description: 'x'.repeat(120) }, "package.json's description is 120 characters"],
  ])('refuses %s in one sentence, writing nothing', (_name, change, message) => {
    write('package.json', JSON.stringify({ ...MANIFEST, ...change }));
    const result = release();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`mcpkit-bundle: ${message}`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(pkg, 'release'))).toBe(false);
  });

  it('names a bundle with a native addon after the platform it runs on, following a linked package folder', () => {
    // As an npm workspace installs it: the package folder reached through a link.
    symlinkSync(
      join(ROOT, 'node_modules', 'better-sqlite3'),
      join(pkg, 'node_modules', 'better-sqlite3'),
      'dir',
    );
    write('dist/worker.js', "import Database from 'better-sqlite3';\nnew Database(':memory:');\n");
    const result = release();
    expect(result.status, result.stderr).toBe(0);
    const file = `acme-notes-2.0.0-${process.platform}-${process.arch}.mcpb`;
    expect(readdirSync(join(pkg, 'release')).sort()).toEqual([file, 'server.json']);
    const serverJson = JSON.parse(readFileSync(join(pkg, 'release', 'server.json'), 'utf8'));
    expect(serverJson.packages[1].identifier).toMatch(new RegExp(`/${file.replace(/\./g, '\\.')}$`));
  });

  it('refuses a symbolic link in dist/ instead of packing what it points to, writing nothing', () => {
    const outside = mkdtempSync(join(tmpdir(), 'release-outside-'));
    try {
      writeFileSync(join(outside, 'secret.txt'), 'not for the bundle\n');
      const before = createHash('sha256')
        .update(readFileSync(join(outside, 'secret.txt')))
        .digest('hex');
      symlinkSync(outside, join(pkg, 'dist', 'assets'), 'dir');
      const result = release();
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        'mcpkit-bundle: dist/assets is a symbolic link; a bundle carries only files inside the package, so replace it with the file itself.',
      );
      expect(result.stderr).not.toContain(outside);
      expect(existsSync(join(pkg, 'release'))).toBe(false);
      expect(readdirSync(outside)).toEqual(['secret.txt']);
      expect(
        createHash('sha256')
          .update(readFileSync(join(outside, 'secret.txt')))
          .digest('hex'),
      ).toBe(before);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('names a built file that fails to load from the package folder, not by its host path', () => {
    write('dist/tools/index.js', "import './missing.js';\nexport const tools = [];\n");
    const result = release();
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('mcpkit-bundle: dist/tools/index.js failed to load (');
    expect(result.stderr).toContain('./dist/tools/missing.js');
    expect(result.stderr).not.toContain(pkg);
    expect(existsSync(join(pkg, 'release'))).toBe(false);
  });

  it('says package.json is missing without naming the host folder', () => {
    rmSync(join(pkg, 'package.json'));
    const result = release();
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      "mcpkit-bundle: package.json is missing or is not JSON; run mcpkit-bundle release from a server's package folder.",
    );
  });

  it('refuses a package that was not built', () => {
    rmSync(join(pkg, 'dist', 'cli.js'));
    const result = release();
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'mcpkit-bundle: dist/cli.js does not exist; build the package (tsc -b && mcpkit-bundle) before the release.',
    );
  });

  it('refuses an unknown flag of its own', () => {
    const result = release('--fast');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^mcpkit-bundle: Unknown option '--fast'; run mcpkit-bundle release --help/,
    );
  });
});
