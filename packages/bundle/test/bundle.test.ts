import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleBin } from '../src/index.js';

const CLI = fileURLToPath(new URL('../bin/mcpkit-bundle.js', import.meta.url));

let app: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(app, path)), { recursive: true });
  writeFileSync(join(app, path), text);
}

/**
 * A package shaped like a built server: a bin that reads its own package.json through
 * import.meta.url, a CommonJS dependency that requires a Node built-in, an ESM dependency with a
 * nameless nested package.json, and a lazily imported module.
 */
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), 'bundle-'));
  write('package.json', JSON.stringify({ name: 'fixture-app', version: '3.0.0', type: 'module' }));
  write(
    'src/bin.ts',
    [
      '#!/usr/bin/env node',
      "import { readFileSync } from 'node:fs';",
      "import greet from 'cjs-dep';",
      "import { shout } from 'esm-dep';",
      "const { version }: { version: string } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));",
      "const { later } = await import('./later.js');",
      'console.log(shout(greet(version)), later());',
    ].join('\n'),
  );
  write('src/later.ts', "export const later = (): string => 'later';\n");
  write(
    'node_modules/cjs-dep/package.json',
    JSON.stringify({ name: 'cjs-dep', version: '1.2.3', license: 'MIT' }),
  );
  write('node_modules/cjs-dep/LICENSE', 'MIT License\n\nCopyright (c) cjs-dep authors\n');
  write(
    'node_modules/cjs-dep/index.js',
    "const path = require('node:path');\nmodule.exports = (v) => 'hello ' + path.basename('/x/' + v);\n",
  );
  write(
    'node_modules/esm-dep/package.json',
    JSON.stringify({
      name: 'esm-dep',
      version: '0.4.0',
      license: { type: 'ISC' },
      type: 'module',
      exports: './lib/index.js',
    }),
  );
  write('node_modules/esm-dep/lib/package.json', JSON.stringify({ type: 'module' }));
  write(
    'node_modules/esm-dep/lib/index.js',
    [
      // A file that ships a copy of another package inside it, marked as rolldown marks them.
      '//#region ../../node_modules/.pnpm/tiny-copied@2.0.1/node_modules/tiny-copied/index.js',
      'const copied = (s) => s;',
      '//#endregion',
      'export const shout = (s) => copied(s).toUpperCase();',
    ].join('\n'),
  );
  write(
    'node_modules/tiny-copied/package.json',
    JSON.stringify({ name: 'tiny-copied', version: '2.0.3', license: 'MIT' }),
  );
  write('node_modules/tiny-copied/LICENSE', 'MIT License\n\nCopyright (c) tiny-copied authors\n');
});

afterEach(() => rmSync(app, { recursive: true, force: true }));

describe('bundleBin', () => {
  it('writes one executable file that runs without node_modules', async () => {
    const result = await bundleBin({ entry: 'src/bin.ts', outfile: 'dist/bin.js', cwd: app });
    expect(result.external).toEqual([]);
    rmSync(join(app, 'node_modules'), { recursive: true });
    rmSync(join(app, 'src'), { recursive: true });

    const text = readFileSync(result.outfile, 'utf8');
    expect(text.split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(text).not.toMatch(/from\s*["'](?:cjs-dep|esm-dep)["']/);
    expect(statSync(result.outfile).mode & 0o111).toBe(0o111);
    expect(result.bytes).toBe(statSync(result.outfile).size);
    expect(execFileSync(process.execPath, [result.outfile], { encoding: 'utf8' }).trim()).toBe(
      'HELLO 3.0.0 later',
    );
  });

  it('lists every bundled package with its license text, and not the package itself', async () => {
    const result = await bundleBin({ entry: 'src/bin.ts', outfile: 'dist/bin.js', cwd: app });
    expect(result.packages.map((p) => `${p.name}@${p.version} ${p.license}`)).toEqual([
      'cjs-dep@1.2.3 MIT',
      'esm-dep@0.4.0 ISC',
      'tiny-copied@2.0.1 MIT',
    ]);
    expect(result.noticesFile).toBe(join(app, 'dist/bin.js.LICENSE.txt'));
    const notices = readFileSync(result.noticesFile, 'utf8');
    expect(notices).toContain('## cjs-dep@1.2.3 (MIT)\n\nMIT License\n\nCopyright (c) cjs-dep authors');
    expect(notices).toContain(
      '## esm-dep@0.4.0 (ISC)\n\nThis package ships no license file; its package.json declares ISC.',
    );
    expect(notices).toContain(
      '## tiny-copied@2.0.1 (MIT)\n\nCopied into the published files of esm-dep.\n\nMIT License\n\nCopyright (c) tiny-copied authors',
    );
    expect(notices).not.toContain('fixture-app');
    expect(readFileSync(result.outfile, 'utf8')).toContain('see bin.js.LICENSE.txt');
  });
});

describe('native addons', () => {
  /** A package that npm would build with node-gyp: its code needs the `.node` file beside it. */
  function addNative(mark: 'binding.gyp' | 'gypfile'): void {
    write(
      'node_modules/native-dep/package.json',
      JSON.stringify({
        name: 'native-dep',
        version: '1.0.0',
        main: 'index.js',
        ...(mark === 'gypfile' ? { gypfile: true } : {}),
      }),
    );
    if (mark === 'binding.gyp') write('node_modules/native-dep/binding.gyp', '{}');
    // Stands in for `require('bindings')('x.node')`: it only works from its own installed folder.
    write(
      'node_modules/native-dep/index.js',
      "module.exports = () => 'native from ' + require('node:path').basename(__dirname);\n",
    );
    write(
      'src/native-bin.ts',
      "import native from 'native-dep';\nimport greet from 'cjs-dep';\nconsole.log(native(), greet('x'));\n",
    );
  }

  for (const mark of ['binding.gyp', 'gypfile'] as const) {
    it(`leaves a package marked by ${mark} in node_modules and bundles the rest`, async () => {
      addNative(mark);
      const result = await bundleBin({ entry: 'src/native-bin.ts', outfile: 'dist/native.js', cwd: app });
      expect(result.external).toEqual(['native-dep']);
      expect(result.packages.map((p) => p.name)).toEqual(['cjs-dep']);
      const text = readFileSync(result.outfile, 'utf8');
      expect(text).toMatch(/from\s*["']native-dep["']/);
      expect(text).not.toMatch(/from\s*["']cjs-dep["']/);
      expect(execFileSync(process.execPath, [result.outfile], { cwd: app, encoding: 'utf8' }).trim()).toBe(
        'native from native-dep hello x',
      );
    });
  }

  it('names the native packages it left out', () => {
    addNative('binding.gyp');
    const run = spawnSync(process.execPath, [CLI, 'src/native-bin.ts', 'dist/native.js'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('; native, left in node_modules: native-dep\n');
  });
});

describe('mcpkit-bundle', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: app, encoding: 'utf8' });

  it('bundles src/bin.ts into dist/bin.js by default and says what it wrote', () => {
    const run = cli([]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^dist\/bin\.js: \d+ KiB, 3 third-party packages \(licenses in dist\/bin\.js\.LICENSE\.txt\)\n$/,
    );
  });

  it('says where to run it when the entry is missing', () => {
    rmSync(join(app, 'src'), { recursive: true });
    const run = cli([]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'mcpkit-bundle: src/bin.ts does not exist; run mcpkit-bundle from the package folder, or name the entry.\n',
    );
  });

  it('names the import it could not resolve, in one line', () => {
    write('dist/broken.js', "import 'not-installed';\n");
    const run = cli(['dist/broken.js', 'dist/broken-bin.js']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'mcpkit-bundle: Could not bundle dist/broken.js: Could not resolve "not-installed"\n',
    );
  });

  it('refuses flags and extra arguments it does not know', () => {
    expect(cli(['--minify']).stderr).toBe(
      'mcpkit-bundle: Unexpected argument --minify; run mcpkit-bundle --help for the usage.\n',
    );
    expect(cli(['a', 'b', 'c']).status).toBe(1);
    expect(cli(['--help']).stdout).toContain('Usage: mcpkit-bundle [entry] [outfile]');
  });
});
