/**
 * The readme command on a package shaped like a built server: package.json, dist/tools/index.js
 * (export `tools`), dist/cli.js (export `cli` with `exampleArgs`) and a README with the markers.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installMarkdown } from '@mcpkit/core/install';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readmeCommand } from '../src/readme/command.js';
import { updateReadme } from '../src/readme/generate.js';

const TOOL = (name: string, description: string, readOnly: boolean) =>
  `{ name: ${JSON.stringify(name)}, title: 'T', description: ${JSON.stringify(description)}, annotations: { readOnlyHint: ${readOnly}, destructiveHint: true } }`;

const README = `# @acme/notes-server

Prose an author wrote.

## Tools

<!-- generated:tools -->
<!-- /generated:tools -->

More prose.

## Install

<!-- generated:install -->
<!-- /generated:install -->

The end.
`;

let dir: string;
const made: string[] = [];

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/** A fresh package folder (fresh paths, so each gets its own module instances). */
function fixture(options: { tools?: string[]; cli?: string | null; readme?: string } = {}): string {
  dir = mkdtempSync(join(tmpdir(), 'readme-'));
  made.push(dir);
  write(
    'package.json',
    JSON.stringify({
      name: '@acme/notes-server',
      version: '1.0.0',
      type: 'module',
      bin: { 'acme-notes': './dist/bin.js' },
    }),
  );
  const tools = options.tools ?? [
    TOOL('read_note', 'Returns one note. Then more.', true),
    TOOL('delete_note', 'Deletes a note.', false),
  ];
  write('dist/tools/index.js', `export const tools = [${tools.join(', ')}];\n`);
  if (options.cli !== null) {
    write(
      'dist/cli.js',
      options.cli ?? "export const cli = { bin: 'acme-notes', exampleArgs: ['/Users/you/notes'] };\n",
    );
  }
  write('README.md', options.readme ?? README);
  return dir;
}

const readme = () => readFileSync(join(dir, 'README.md'), 'utf8');
const hash = () =>
  createHash('sha256')
    .update(readFileSync(join(dir, 'README.md')))
    .digest('hex');

afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('updateReadme', () => {
  it('fills both sections and keeps every line outside them', async () => {
    fixture();
    expect(await updateReadme(dir)).toEqual({ stale: ['tools', 'install'], written: true });
    const text = readme();
    expect(text).toContain('| `read_note` | Returns one note. | read-only |');
    expect(text).toContain('| `delete_note` | Deletes a note. | destructive |');
    const spec = {
      name: 'notes',
      packageName: '@acme/notes-server',
      bin: 'acme-notes',
      args: ['/Users/you/notes'],
    };
    expect(text).toContain(installMarkdown(spec).trim());
    const outside = text
      .replace(/<!-- generated:(\w+) -->[\s\S]*?<!-- \/generated:\1 -->/g, '<$1>')
      .replace(/<!-- generated:(\w+) -->\n<!-- \/generated:\1 -->/g, '<$1>');
    expect(outside).toBe(README.replace(/<!-- generated:(\w+) -->\n<!-- \/generated:\1 -->/g, '<$1>'));
  });

  it('is stable: a second run and a check change nothing', async () => {
    fixture();
    await updateReadme(dir);
    const before = hash();
    expect(await updateReadme(dir)).toEqual({ stale: [], written: false });
    expect(await updateReadme(dir, { check: true })).toEqual({ stale: [], written: false });
    expect(hash()).toBe(before);
  });

  it('finds a tool added without regenerating, and the check writes nothing', async () => {
    const first = fixture();
    await updateReadme(first);
    const generated = readme();
    fixture({
      tools: [
        TOOL('read_note', 'Returns one note. Then more.', true),
        TOOL('delete_note', 'Deletes a note.', false),
        TOOL('rename_note', 'Renames a note.', false),
      ],
      readme: generated,
    });
    const before = hash();
    expect(await updateReadme(dir, { check: true })).toEqual({ stale: ['tools'], written: false });
    expect(hash()).toBe(before);
  });

  it('uses no arguments when the description gives no examples', async () => {
    fixture({ cli: "export const cli = { bin: 'acme-notes' };\n" });
    await updateReadme(dir);
    expect(readme()).toContain(
      installMarkdown({
        name: 'notes',
        packageName: '@acme/notes-server',
        bin: 'acme-notes',
        args: [],
      }).trim(),
    );
  });

  it('refuses a README without markers, naming them, before importing the build', async () => {
    fixture({ readme: '# Notes\n\n| tool |\n|---|\n', cli: null });
    write('dist/tools/index.js', 'throw new Error("must not be imported");\n');
    const before = hash();
    await expect(updateReadme(dir)).rejects.toThrow(
      'README.md has no place for the generated tools and install sections; add <!-- generated:tools --> … <!-- /generated:tools --> and <!-- generated:install --> … <!-- /generated:install -->, each marker on a line of its own, where they belong.',
    );
    expect(hash()).toBe(before);
  });

  it('says to build when dist/cli.js is missing', async () => {
    fixture({ cli: null });
    await expect(updateReadme(dir)).rejects.toThrow(
      'dist/cli.js is missing; build the package first (npx turbo run build).',
    );
  });

  it('says which export is missing', async () => {
    fixture({ cli: 'export const other = {};\n' });
    await expect(updateReadme(dir)).rejects.toThrow(
      'dist/cli.js has no export named cli; export it from src/cli.ts.',
    );
  });

  it('says which build file failed to load, without the absolute path', async () => {
    fixture();
    write('dist/tools/index.js', "export { tools } from './missing.js';\n");
    const error = await updateReadme(dir).then(
      () => new Error('updateReadme accepted a build that cannot load'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/^dist\/tools\/index\.js failed to load \(.*\); rebuild the package/);
    expect(error.message).toContain("'./missing.js' imported from ./dist/tools/index.js");
    expect(error.message).not.toContain(dir);
  });

  it('refuses tools that are not definitions', async () => {
    fixture({ tools: ['42'] });
    await expect(updateReadme(dir)).rejects.toThrow(/not a list of tool definitions/);
  });
});

describe('readmeCommand', () => {
  let cwd: string;
  let stderr: string;
  let stdout: string;

  beforeEach(() => {
    cwd = process.cwd();
    stderr = '';
    stdout = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    process.exitCode = undefined;
  });

  afterEach(() => {
    process.chdir(cwd);
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('--check exits 1 with one sentence naming the section and the command that fixes it', async () => {
    process.chdir(fixture());
    const before = hash();
    await readmeCommand(['--check']);
    expect(process.exitCode).toBe(1);
    expect(stderr).toBe(
      'mcpkit-bundle readme: README.md\'s generated tools and install sections differ from the build; run "mcpkit-bundle readme" in this folder after the build to update it.\n',
    );
    expect(hash()).toBe(before);
  });

  it('writes, then passes its own check', async () => {
    process.chdir(fixture());
    await readmeCommand([]);
    expect(stdout).toBe('README.md: updated the generated tools and install sections\n');
    await readmeCommand(['--check']);
    expect(process.exitCode).toBeUndefined();
    expect(stderr).toBe('');
  });

  it('refuses an unknown argument with one sentence', async () => {
    process.chdir(fixture());
    await readmeCommand(['--fix']);
    expect(process.exitCode).toBe(1);
    expect(stderr).toBe(
      'mcpkit-bundle readme: Unexpected argument --fix; run mcpkit-bundle readme --help for the usage.\n',
    );
  });

  it('prints one sentence, not a stack, when the folder is not a package', async () => {
    dir = mkdtempSync(join(tmpdir(), 'readme-'));
    made.push(dir);
    process.chdir(dir);
    await readmeCommand([]);
    expect(process.exitCode).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toContain(dir);
  });
});

describe('mcpkit-bundle readme', () => {
  const CLI = fileURLToPath(new URL('../bin/mcpkit-bundle.js', import.meta.url));
  const bundle = (cwd: string, args: string[]) =>
    spawnSync(process.execPath, [CLI, 'readme', ...args], { cwd, encoding: 'utf8', timeout: 30_000 });

  it('exits 1 on a stale README and 0 once the command has written it', () => {
    fixture();
    const stale = bundle(dir, ['--check']);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toMatch(
      /^mcpkit-bundle readme: README\.md's generated tools and install sections differ/,
    );
    expect(bundle(dir, []).status).toBe(0);
    const fresh = bundle(dir, ['--check']);
    expect([fresh.status, fresh.stderr]).toEqual([0, '']);
  });
});
