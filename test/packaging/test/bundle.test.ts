/**
 * Bundled bins (a server's `dist/bin.js`) carry their dependencies inside, except native addons:
 * the bundler leaves those to npm, because their compiled `.node` file must sit beside their own
 * code. Scanning bundles for imports cannot tell code from code-generation strings, so they are
 * judged by running them from a copy of the unpacked tarball with nothing around it but the native
 * packages it left out, linked from the user install where npm fetched or built them in this run.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { isBundle } from '../src/bundles.js';
import { run } from '../src/run.js';
import { binsOf } from '../src/workspaces.js';
import { expectServesWorld, worldOf } from '../src/world-session.js';

const packed = inject('packed');
const scratch = inject('scratch');
const installed = inject('installed');

/** Whether a bundle's notices file lists package `name` as bundled. */
const noticed = (notices: string, name: string) =>
  new RegExp(`^## ${name.replace(/[/.]/g, '\\$&')}@`, 'm').test(notices);

/** Every `.node` file inside a package folder, however its build or download laid them out. */
const addonsIn = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((file) => file.endsWith('.node'));

const bundled = packed.flatMap((pkg) =>
  Object.entries(binsOf(pkg.manifest))
    .filter(([, script]) => isBundle(readFileSync(join(pkg.root, script), 'utf8')))
    .map(([bin, script]) => ({ pkg, bin, script })),
);

it('every server bin is bundled', () => {
  const servers = packed.filter((p) => p.path.startsWith('servers/'));
  expect(servers.length).toBeGreaterThan(0);
  for (const pkg of servers) {
    for (const bin of Object.keys(binsOf(pkg.manifest))) {
      expect(
        bundled.some((b) => b.bin === bin),
        `${bin} is not bundled`,
      ).toBe(true);
    }
  }
});

describe.each(bundled)('$bin', ({ pkg, bin, script }) => {
  const alone = join(scratch, 'alone', bin);
  cpSync(pkg.root, alone, { recursive: true });
  const file = join(alone, script);
  // Every bundle the package ships has its own notices (a server's worker is bundled apart from
  // its bin): a dependency bundled into any of them is shipped with its license.
  const notices = (readdirSync(alone, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.LICENSE.txt') && !name.split(/[\\/]/).includes('node_modules'))
    .map((name) => readFileSync(join(alone, name), 'utf8'))
    .join('\n');
  // What the bundle left out: the declared dependencies its notices do not list (a sibling
  // package of ours needs no notice, but is bundled all the same).
  const leftOut = Object.keys(pkg.manifest.dependencies ?? {}).filter(
    (dep) => !dep.startsWith('@mcpkit/') && !noticed(notices, dep),
  );
  for (const dep of leftOut) {
    const link = join(alone, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(installed, 'node_modules', dep), link, 'dir');
  }

  it('ships the licenses of what it bundled, and leaves out only native packages', () => {
    // A dependency missing from the notices must be a native addon, fetched or built by the user
    // install in this run; any other would be a bundled package shipped without its license.
    for (const dep of leftOut) expect(addonsIn(join(installed, 'node_modules', dep)), dep).not.toEqual([]);
  });

  it('has no node_modules to lean on but the native packages it left out', () => {
    const modules = join(alone, 'node_modules');
    const linked = existsSync(modules)
      ? readdirSync(modules).flatMap((name) =>
          name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name],
        )
      : [];
    expect(linked.sort()).toEqual([...leftOut].sort());
    let dir = join(alone, '..');
    for (;;) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
      const parent = join(dir, '..');
      if (parent === dir) break;
      dir = parent;
    }
  });

  it('prints its version with nothing else installed', async () => {
    const result = await run('node', [file, '--version'], { cwd: alone });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it.each(['legacy', 'modern'] as const)(
    'serves its test world in a %s-era stdio session with nothing else installed',
    async (era) => {
      // The world's read makes code the bin loads later (worker scripts, lazy imports) run alone too.
      await expectServesWorld(await worldOf(pkg.name, pkg.path), {
        dir: join(scratch, 'alone-worlds', `${bin}-${era}`),
        launch: { command: 'node', args: [file] },
        eras: [era],
      });
    },
  );
});
