import { execFileSync } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A tree to create: a string is a file's content, an object a directory. */
export interface TreeSpec {
  [name: string]: string | TreeSpec;
}

/** Creates `spec` under `dir`. */
export async function makeTree(dir: string, spec: TreeSpec): Promise<void> {
  for (const [name, value] of Object.entries(spec)) {
    const path = join(dir, name);
    if (typeof value === 'string') await writeFile(path, value);
    else {
      await mkdir(path, { recursive: true });
      await makeTree(path, value);
    }
  }
}

/**
 * Creates `count` empty files spread over `dirs` directories (`d0000/f00000`…) with plain
 * synchronous syscalls: on this kind of machine that is several times faster than batches of
 * promises, which queue on libuv's four threads.
 */
export function makeWideTree(root: string, dirs: number, count: number): void {
  for (let d = 0; d < dirs; d++) mkdirSync(join(root, `d${String(d).padStart(4, '0')}`), { recursive: true });
  for (let i = 0; i < count; i++) {
    const dir = join(root, `d${String(i % dirs).padStart(4, '0')}`);
    closeSync(openSync(join(dir, `f${String(i).padStart(6, '0')}.txt`), 'w'));
  }
}

/** A scratch directory on tmpfs when there is one (200k files in seconds), else in the temp dir. */
export function fastScratch(prefix: string): string {
  for (const base of ['/dev/shm', tmpdir()]) {
    try {
      accessSync(base, constants.W_OK);
      return mkdtempSync(join(base, prefix));
    } catch {
      // try the next one
    }
  }
  throw new Error('no writable scratch directory');
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Makes sure the compiled content worker exists. search_content runs its matching in a worker
 * thread, which loads `dist/fs/content-worker.js` when the server runs from `src/` under vitest
 * (Node 20 cannot start a worker from TypeScript). `turbo run test` builds the package first; a
 * bare `npx vitest run` compiles that one self-contained file here when it is missing or older.
 */
export function ensureContentWorker(): void {
  const source = join(here, '../src/fs/content-worker.ts');
  const built = join(here, '../dist/fs/content-worker.js');
  const builtAt = (() => {
    try {
      return statSync(built).mtimeMs;
    } catch {
      return 0;
    }
  })();
  if (builtAt >= statSync(source).mtimeMs) return;
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
  execFileSync(
    process.execPath,
    [
      tsc,
      '--ignoreConfig',
      source,
      '--outDir',
      dirname(built),
      '--rootDir',
      dirname(source),
      '--target',
      'es2023',
      '--module',
      'nodenext',
      '--types',
      'node',
      '--skipLibCheck',
    ],
    { cwd: join(here, '..'), stdio: 'pipe' },
  );
}
