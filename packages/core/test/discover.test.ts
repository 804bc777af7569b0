import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverServers, serversWithoutWorld } from '../src/testing/discover.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function workspace(workspaces: unknown, packages: Record<string, object>, worlds: string[]): string {
  root = mkdtempSync(join(tmpdir(), 'mcpkit-discover-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces }));
  for (const [path, manifest] of Object.entries(packages)) {
    mkdirSync(join(root, path, 'test'), { recursive: true });
    writeFileSync(join(root, path, 'package.json'), JSON.stringify(manifest));
  }
  for (const path of worlds)
    writeFileSync(join(root, path, 'test', 'world.ts'), 'export const world = {};\n');
  return root;
}

describe('discoverServers', () => {
  it('finds packages with a bin and a world, under folders and dir/* globs, sorted', () => {
    const ws = workspace(
      ['servers/*', 'tools/cli'],
      {
        'servers/beta': { name: '@acme/server-beta', bin: { 'acme-beta': './dist/bin.js' } },
        'servers/alpha': { name: '@acme/server-alpha', bin: './dist/bin.js', private: true },
        'servers/no-bin': { name: '@acme/lib' },
        'servers/no-world': { name: '@acme/server-gamma', bin: { gamma: './dist/bin.js' } },
        'tools/cli': { name: 'cli', bin: { cli: './cli.js' } },
      },
      ['servers/beta', 'servers/alpha', 'tools/cli'],
    );
    const found = discoverServers(ws);
    expect(found.map((s) => [s.path, s.command, s.private])).toEqual([
      // A bin given as a string is installed under the name without its scope, as npm does.
      ['servers/alpha', 'server-alpha', true],
      ['servers/beta', 'acme-beta', false],
      ['tools/cli', 'cli', false],
    ]);
    expect(found[0]?.bin).toBe(join(ws, 'servers', 'alpha', 'dist', 'bin.js'));
    expect(serversWithoutWorld(ws)).toEqual(['servers/no-world']);
  });

  it('reads the { packages: [...] } form of workspaces', () => {
    const ws = workspace({ packages: ['servers/*'] }, { 'servers/a': { name: 'a', bin: { a: 'a.js' } } }, [
      'servers/a',
    ]);
    expect(discoverServers(ws).map((s) => s.name)).toEqual(['a']);
  });

  it('refuses a glob it cannot read, rather than skip servers unnoticed', () => {
    const ws = workspace(['servers/**'], {}, []);
    expect(() => discoverServers(ws)).toThrow(/not a folder or "folder\/\*"/);
  });
});
