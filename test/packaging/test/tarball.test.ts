/**
 * What is inside each tarball: no tests, sources, build caches, secrets or dev configuration, and
 * shipped code that imports only what the package declares ("only real dependencies
 * declared, no tests or sources of other packages shipped").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { isBundle } from '../src/bundles.js';
import { exportedSubpaths } from '../src/exports.js';
import { forbiddenReasons } from '../src/forbidden.js';
import { isRelative, packageOf, specifiersIn, subpathOf } from '../src/imports.js';

const packed = inject('packed');
const byName = new Map(packed.map((p) => [p.name, p]));

describe.each(packed)('$name', (pkg) => {
  const shipped = new Set(pkg.files);
  const scripts = pkg.files.filter((f) => f.startsWith('dist/') && /\.[cm]?js$/.test(f));
  // A bundled bin carries its dependencies' code, including code-generation strings that read as
  // imports; it is judged by running it alone (below), not by scanning.
  const bundles = scripts.filter((f) => isBundle(readFileSync(join(pkg.root, f), 'utf8')));
  const imports = scripts
    .filter((f) => !bundles.includes(f))
    .map((file) => ({
      file,
      specifiers: specifiersIn(readFileSync(join(pkg.root, file), 'utf8')),
    }));

  it('holds no tests, sources, caches, secrets or dev configuration', () => {
    const offending = pkg.files.flatMap((file) => forbiddenReasons(file).map((why) => `${file} (${why})`));
    expect(offending).toEqual([]);
    expect(scripts.length).toBeGreaterThan(0);
  });

  it('imports only node: builtins, declared dependencies and peers, and itself', () => {
    const m = pkg.manifest;
    const declared = new Set([
      ...Object.keys(m.dependencies ?? {}),
      ...Object.keys(m.peerDependencies ?? {}),
    ]);
    const undeclared: string[] = [];
    for (const { file, specifiers } of imports) {
      for (const specifier of specifiers) {
        if (isRelative(specifier) || specifier.startsWith('node:')) continue;
        // A builtin without `node:` lands here too: a package of that name could shadow it.
        if (!declared.has(packageOf(specifier)) && packageOf(specifier) !== m.name) {
          undeclared.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('declares no dependency its shipped code never imports', () => {
    const used = new Set(
      imports.flatMap(({ specifiers }) => specifiers.filter((s) => !isRelative(s)).map(packageOf)),
    );
    const unused = Object.keys(pkg.manifest.dependencies ?? {}).filter((dep) => !used.has(dep));
    expect(unused).toEqual([]);
  });

  it('resolves every relative import to a shipped file', () => {
    const dangling: string[] = [];
    for (const { file, specifiers } of imports) {
      for (const specifier of specifiers.filter(isRelative)) {
        const target = join(file, '..', specifier).split('\\').join('/');
        if (!shipped.has(target)) dangling.push(`${file}: ${specifier}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('imports only subpaths the sibling packages export', () => {
    const unexported: string[] = [];
    for (const { file, specifiers } of imports) {
      for (const specifier of specifiers) {
        const sibling = isRelative(specifier) ? undefined : byName.get(packageOf(specifier));
        if (sibling === undefined) continue;
        if (!exportedSubpaths(sibling.manifest.exports).includes(subpathOf(specifier))) {
          unexported.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(unexported).toEqual([]);
  });
});
