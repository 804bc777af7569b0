/**
 * Adding a server is copying a folder: a copy of the example under a new name, in a workspace of
 * its own, is found by discovery (which every outside-in layer and `npm start` use) and served by
 * `npm start`, with no edit outside the copied folder. And no layer names a server itself.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { discoverServers, serversWithoutWorld } from '@mcpkit/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../src/workspaces.js';

const SKIP = new Set(['node_modules', 'dist', '.reports', '.turbo']);

describe('a server folder registers itself', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-workspace-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  // A workspace like this one: the root manifest, and servers/ with a copy of the example.
  writeFileSync(join(root, 'package.json'), readFileSync(join(ROOT, 'package.json')));
  writeFileSync(join(root, 'tsconfig.base.json'), readFileSync(join(ROOT, 'tsconfig.base.json')));
  // Installed packages and the toolkit as they are here (the copy's tsconfig refers to core's).
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  symlinkSync(join(ROOT, 'packages'), join(root, 'packages'), 'dir');
  const copy = join(root, 'servers', 'notes-copy');
  cpSync(join(ROOT, 'servers', 'example'), copy, {
    recursive: true,
    filter: (path) => !SKIP.has(basename(path)),
  });
  // Only what a person copying the template edits, all inside the folder.
  const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
  manifest.name = '@acme/notes-copy';
  manifest.bin = { 'acme-notes': './dist/bin.js' };
  writeFileSync(join(copy, 'package.json'), JSON.stringify(manifest, null, 2));

  it('is found by discovery, with its own bin and world', () => {
    const found = discoverServers(root);
    expect(found.map((s) => s.name)).toEqual(['notes-copy']);
    expect(found[0]).toMatchObject({
      packageName: '@acme/notes-copy',
      command: 'acme-notes',
      path: 'servers/notes-copy',
      bin: join(copy, 'dist', 'bin.js'),
      world: join(copy, 'test', 'world.ts'),
    });
    expect(serversWithoutWorld(root)).toEqual([]);
  });

  it('is served by npm start', () => {
    const start = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'start.mjs'), '--root', root, '--dry-run'],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(start.status, start.stderr).toBe(0);
    const plan = start.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(plan).toEqual([
      {
        name: 'notes-copy',
        bin: join(copy, 'dist', 'bin.js'),
        port: 3000,
        args: [expect.stringMatching(/notes$/)],
      },
    ]);
  });

  it('a server folder without a world is reported', () => {
    rmSync(join(copy, 'test', 'world.ts'));
    expect(discoverServers(root)).toEqual([]);
    expect(serversWithoutWorld(root)).toEqual(['servers/notes-copy']);
  });
});

describe('this workspace', () => {
  it('has a test world in every server folder', () => {
    expect(serversWithoutWorld(ROOT)).toEqual([]);
    expect(discoverServers(ROOT).length).toBeGreaterThan(0);
  });

  it('names no server in the layers that run every server', () => {
    const layers = [
      'test/e2e/src',
      'test/e2e/test',
      'test/security',
      'test/conformance/src',
      'test/conformance/test',
      'test/packaging/src',
      'test/packaging/test',
      'scripts',
    ];
    const names = discoverServers(ROOT).flatMap((s) => [s.packageName, s.command, `servers/${s.name}`]);
    const offenders: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!SKIP.has(entry.name) && entry.name !== 'scenarios' && entry.name !== 'expected-failures')
            visit(path);
          continue;
        }
        if (!/\.(ts|mjs|json)$/.test(entry.name) || entry.name === 'discovery.test.ts') continue;
        const text = readFileSync(path, 'utf8');
        for (const name of names)
          if (text.includes(name)) offenders.push(`${path.slice(ROOT.length)}: ${name}`);
      }
    };
    for (const layer of layers) visit(join(ROOT, layer));
    expect(offenders).toEqual([]);
  });
});
