import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Example,
  type ExampleModule,
  exampleModule,
  exportedNames,
  extractExamples,
  mapDiagnostics,
  type Scope,
} from './examples-extract.js';

// Every ```ts block of an @example tag in src/ is compiled, as its own module, against the built
// package imported by its published names (what a user's code sees), in one tsc run. Each module
// starts with the same preamble: every public name imported from its entry (`@mcpkit/core/roots`,
// …), zod as `z`, and the free variables below; an internal helper's example also sees the other
// exports of the file it documents. The modules are written to .examples/ (gitignored, remade on
// every run) so that a failure can be looked at.
const PKG = fileURLToPath(new URL('../', import.meta.url));
const ROOT = join(PKG, '../..');
const OUT = join(PKG, '.examples');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc'); // what node_modules/.bin/tsc runs

/**
 * The free variables an example may use without declaring them. Keep this list short: an example
 * that needs something else declares it, or is written so that it does not.
 */
const FREE: Record<string, string> = {
  // The object every handler gets (`run(args, call)`): call.signal, call.flow, call.app, …
  call: 'declare const call: Call;',
  // An app, as createApp returns it.
  app: 'declare const app: App;',
  // The process log.
  log: 'declare const log: Logger;',
  // A directory the server works in.
  dir: 'declare const dir: string;',
};

/** Third-party names every example may use, imported as the project's own code does. */
const EXTRA: Record<string, string> = { z: "import * as z from 'zod';" };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    )
    .sort();
}

/** The public entries, from package.json's exports map, with the names their source index exports. */
function publicEntries(): Scope['entries'] {
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'string' ? undefined : target.types;
    // The root barrel repeats the entries' names; importing both would declare each name twice.
    if (subpath === '.' || types === undefined) return [];
    const index = join(PKG, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
    const specifier = `${pkg.name}${subpath.slice(1)}`;
    return [{ specifier, names: exportedNames(readFileSync(index, 'utf8')) }];
  });
}

/** Writes one module per block, and the tsconfig that checks them; returns the modules by file name. */
function writeModules(examples: readonly Example[], scope: Scope): Map<string, ExampleModule> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const modules = new Map<string, ExampleModule>();
  const count = new Map<string, number>();
  for (const example of examples) {
    const stem = example.file
      .replace(/^src\//, '')
      .replace(/\.ts$/, '')
      .replaceAll('/', '.');
    const n = (count.get(stem) ?? 0) + 1;
    count.set(stem, n);
    // The documented file's other exports and relative imports, from its built module's folder.
    const built = posix.join('..', example.file.replace(/^src\//, 'dist/'));
    const own = {
      specifier: built.replace(/\.ts$/, '.js'),
      names: exportedNames(readFileSync(join(PKG, example.file), 'utf8')),
    };
    const rebase = (specifier: string) => posix.join(posix.dirname(built), specifier);
    const name = `${stem}-${n}.ts`;
    const module = exampleModule(example, scope, own, rebase);
    writeFileSync(join(OUT, name), module.text);
    modules.set(name, module);
  }
  const tsconfig = {
    extends: '../../../tsconfig.base.json',
    compilerOptions: {
      noEmit: true,
      composite: false,
      declaration: false,
      incremental: false,
      noUnusedLocals: false,
      // The package's own typecheck checks the declarations; here only the examples matter.
      skipLibCheck: true,
    },
    files: [...modules.keys()],
  };
  writeFileSync(join(OUT, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return modules;
}

describe('the extractor', () => {
  const text = [
    '/**',
    ' * Adds.',
    ' *',
    ' * @example',
    ' * ```ts',
    ' * add(1, 2); // 3',
    ' * const n: number = add(1, 2);',
    ' * ```',
    ' * @param a not an example:',
    ' * ```ts',
    ' * ignored();',
    ' * ```',
    ' */',
    'export function add(a: number, b: number): number {',
    '  return a + b;',
    '}',
  ].join('\n');

  it('takes the ```ts blocks of @example tags, without the comment prefix', () => {
    expect(extractExamples(text, 'src/add.ts')).toEqual([
      {
        file: 'src/add.ts',
        line: 6,
        code: 'add(1, 2); // 3\nconst n: number = add(1, 2);',
        prefixes: [3, 3],
      },
    ]);
  });

  it('refuses a block the comment ends in', () => {
    expect(() => extractExamples('/**\n * @example\n * ```ts\n * x();\n */', 'src/x.ts')).toThrow(
      'src/x.ts:3: an @example',
    );
  });

  it('leaves out of the preamble what a block declares or imports itself', () => {
    const code = [
      "import { helper } from './helper.js';",
      'export const { defineTool } = withContext<{ dir: string }>();',
      'const log = createLogger();',
    ];
    const [example] = extractExamples(
      `/**\n * @example\n * \`\`\`ts\n * ${code.join('\n * ')}\n * \`\`\`\n */`,
      'src/x.ts',
    );
    const scope: Scope = {
      entries: [
        {
          specifier: 'p',
          names: [
            { name: 'defineTool', typeOnly: false },
            { name: 'withContext', typeOnly: false },
          ],
        },
      ],
      extra: {},
      free: { log: 'declare const log: Logger;', dir: 'declare const dir: string;' },
    };
    const module = exampleModule(example as Example, scope, undefined, (s) => `../dist/${s.slice(2)}`);
    expect(module.text.split('\n')).toEqual([
      "import { withContext } from 'p';",
      'declare const dir: string;',
      '// src/x.ts:4',
      "import { helper } from '../dist/helper.js';",
      ...code.slice(1),
      '',
    ]);
  });

  it("maps tsc's diagnostics back to the comment, and keeps the rest as tsc wrote them", () => {
    const [example] = extractExamples(text, 'src/add.ts');
    const module: ExampleModule = { example: example as Example, text: '', offset: 3 };
    const output = [
      ".examples/add-1.ts(5,20): error TS2322: Type 'string' is not assignable to type 'number'.",
      '.examples/add-1.ts(1,1): error TS2305: Module has no exported member.',
      'other.ts(1,1): error TS1005: x',
      '',
    ].join('\n');
    expect(mapDiagnostics(output, new Map([['add-1.ts', module]]))).toEqual([
      "src/add.ts:7:23 TS2322 Type 'string' is not assignable to type 'number'.",
      '.examples/add-1.ts(1,1): error TS2305: Module has no exported member.',
      'other.ts(1,1): error TS1005: x',
    ]);
  });
});

describe('the JSDoc examples', () => {
  it('compile against the built package', () => {
    const examples = sources(join(PKG, 'src')).flatMap((file) =>
      extractExamples(readFileSync(file, 'utf8'), relative(PKG, file).replaceAll('\\', '/')),
    );
    expect(examples.length).toBeGreaterThan(0);
    const modules = writeModules(examples, { entries: publicEntries(), extra: EXTRA, free: FREE });
    const tsc = spawnSync(process.execPath, [TSC, '-p', OUT, '--pretty', 'false'], {
      cwd: PKG,
      encoding: 'utf8',
    });
    const report = mapDiagnostics(`${tsc.stdout}\n${tsc.stderr}`, modules);
    if (tsc.error) report.unshift(`tsc did not run: ${tsc.error.message}`);
    expect(
      tsc.status,
      `${report.join('\n')}\n(${examples.length} examples; the modules tsc checked are in ${relative(ROOT, OUT)})`,
    ).toBe(0);
  }, 120_000);
});
