/**
 * The package.json each tarball ships (per-package npm install: correct bin, exports,
 * files, engines; only real dependencies). Read from the unpacked tarball, not the workspace.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { exportTargets } from '../src/exports.js';
import { binsOf, ROOT, workspacePackages } from '../src/workspaces.js';

const packed = inject('packed');
const rootLicense = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string })
  .license;
const workspaces = workspacePackages();
const versions = new Map(workspaces.map((p) => [p.manifest.name, p.manifest.version]));
const unpublished = new Set(
  workspaces.filter((p) => p.manifest.private === true).map((p) => p.manifest.name),
);

/**
 * `source` points the monorepo's own tooling at `src/*.ts`, which is not published; no consumer's
 * resolver is configured with it, so it is left out of the shipped-file check.
 */
const DEVELOPMENT_CONDITIONS = new Set(['source']);

it('finds the publishable packages', () => {
  expect(packed.map((p) => p.name)).toContain('@mcpkit/core');
  expect(packed.every((p) => p.manifest.private !== true)).toBe(true);
});

describe.each(packed)('$name', (pkg) => {
  const m = pkg.manifest;
  const shipped = new Set(pkg.files);

  it('names itself, its version, license, description and module type', () => {
    expect(m.name).toBe(pkg.name);
    expect(m.version).toBe(versions.get(pkg.name));
    expect(m.license).toBe(rootLicense);
    expect(m.description?.trim()).not.toBe('');
    expect(m.type).toBe('module');
  });

  it('declares engines.node >=20.19', () => {
    expect(m.engines?.node).toBe('>=20.19');
  });

  it('whitelists what it ships with "files", including dist', () => {
    expect(Array.isArray(m.files)).toBe(true);
    expect(m.files).toContain('dist');
    expect(shipped.has('README.md')).toBe(true);
  });

  it('has an exports map whose every target is in the tarball, with types first', () => {
    const targets = exportTargets(m.exports);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.some((t) => t.subpath === '.')).toBe(true);
    expect(targets.some((t) => t.subpath === './package.json')).toBe(true);
    const missing = targets
      .filter((t) => !t.condition.split('/').some((c) => DEVELOPMENT_CONDITIONS.has(c)))
      .filter((t) => !shipped.has(t.file.replace(/^\.\//, '')))
      .map((t) => `${t.subpath} [${t.condition}] → ${t.file}`);
    expect(missing).toEqual([]);
    // TypeScript takes the first matching condition: `types` after `default` is never seen.
    for (const [subpath, entry] of Object.entries((m.exports ?? {}) as Record<string, unknown>)) {
      if (typeof entry !== 'object' || entry === null) continue;
      const conditions = Object.keys(entry);
      if (conditions.includes('types')) expect(conditions[0], subpath).toBe('types');
    }
  });

  it('has bins (servers) that exist and start with a node shebang', () => {
    const bins = Object.entries(binsOf(m));
    if (pkg.path.startsWith('servers/')) expect(bins.length).toBeGreaterThan(0);
    for (const [name, script] of bins) {
      expect(name).toMatch(/^mcpkit-[a-z0-9-]+$/);
      const file = script.replace(/^\.\//, '');
      expect(shipped.has(file), script).toBe(true);
      expect(readFileSync(join(pkg.root, file), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    }
  });

  it('depends on registry versions only, and on the sibling versions packed with it', () => {
    const runtime = { ...m.dependencies, ...m.peerDependencies };
    for (const [dep, spec] of Object.entries(runtime)) {
      // Specs npm cannot resolve for a user: links into this checkout, or git and tarball URLs.
      expect(spec, dep).not.toMatch(/^(?:file:|link:|workspace:|git|https?:|github:|\.|\/)/);
      // A private sibling never reaches the registry, so a user could not install it.
      expect(unpublished.has(dep), dep).toBe(false);
      const sibling = versions.get(dep);
      if (sibling !== undefined) expect(spec, dep).toBe(sibling);
    }
  });
});
