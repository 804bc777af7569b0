/**
 * Every server's README agrees with its code: the generated sections (the tools table and the
 * per-host install entries) are what `mcpkit-bundle readme` makes from the built server now, so a
 * tool added, renamed or re-annotated without regenerating the README fails here. Run on the
 * workspace's built servers (`npx turbo run build` first), private ones included: their README is
 * what a person copying them reads.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { discoverServers } from '@mcpkit/core/testing';
import { describe, expect, inject, it } from 'vitest';
import { run } from '../src/run.js';
import { ROOT } from '../src/workspaces.js';

const servers = discoverServers(ROOT);

/** The build tool's bin, found as npm links it: through its package.json in the workspace. */
const bundleManifest = createRequire(join(ROOT, 'package.json')).resolve('@mcpkit/bundle/package.json');
const { bin } = JSON.parse(readFileSync(bundleManifest, 'utf8')) as { bin: Record<string, string> };
const mcpkitBundle = join(dirname(bundleManifest), bin['mcpkit-bundle'] ?? 'missing');

const check = (cwd: string) =>
  run(process.execPath, [mcpkitBundle, 'readme', '--check'], { cwd, timeoutMs: 60_000 });

// Removed with the rest of the run's scratch folder.
const copies = join(inject('scratch'), 'readme');

it('finds the servers', () => {
  expect(servers.length).toBeGreaterThan(0);
});

describe.each(servers)('$path', (server) => {
  it('has README sections equal to what the build makes now', async () => {
    const result = await check(server.dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('fails the check, naming the section, when a tool is missing from the table', async () => {
    // A copy of the folder's README with one tool row gone, beside the same build.
    const copy = join(copies, server.name);
    mkdirSync(copy, { recursive: true });
    cpSync(join(server.dir, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(server.dir, 'dist'), join(copy, 'dist'), 'dir');
    const readme = readFileSync(join(server.dir, 'README.md'), 'utf8');
    const tools = /<!-- generated:tools -->[\s\S]*?<!-- \/generated:tools -->/.exec(readme)?.[0] ?? '';
    const lastRow = tools.split('\n').findLast((line) => line.startsWith('| `'));
    expect(lastRow).toBeDefined();
    writeFileSync(join(copy, 'README.md'), readme.replace(`${lastRow}\n`, ''));

    const result = await check(copy);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `mcpkit-bundle readme: README.md's generated tools section differs from the build; run "mcpkit-bundle readme" in this folder after the build to update it.\n`,
    );
  });
});
