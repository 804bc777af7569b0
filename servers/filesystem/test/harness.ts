import { createHash } from 'node:crypto';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeControlChars, RootSet } from '@mcpkit/core/roots';
import { type AnyTool, type App, createApp } from '@mcpkit/core/server';
import { textOf } from '@mcpkit/core/testing';
import { DEFAULT_FS_CONTEXT, type FsContext } from '../src/context.js';

/**
 * A temporary world for a test: `allowed/` (the root the server gets), a sibling `allowed_evil/`
 * and `outside/` with a secret in it, so prefix and escape attacks have something to aim at.
 */
export async function world() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-fs-')));
  const allowed = join(base, 'allowed');
  const evil = join(base, 'allowed_evil');
  const outside = join(base, 'outside');
  for (const d of [allowed, evil, outside]) await mkdir(d);
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  await writeFile(join(evil, 'x.txt'), 'evil sibling\n');
  return {
    base,
    allowed,
    evil,
    outside,
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** An app over `dirs` that serves only `tools`: a test-local server. */
export async function fsApp(
  dirs: string[],
  tools: AnyTool<FsContext>[],
  options: {
    settings?: Partial<FsContext>;
    pageSize?: number;
    outputLimitBytes?: number;
    readOnly?: boolean;
  } = {},
): Promise<App<FsContext>> {
  return createApp<FsContext>(
    {
      name: 'fs-test',
      version: '0.0.0',
      tools,
      context: { create: () => ({ ...DEFAULT_FS_CONTEXT, ...options.settings }) },
    },
    {
      roots: await RootSet.create(dirs),
      notifyDebounceMs: 20,
      ...(options.pageSize ? { pageSize: options.pageSize } : {}),
      ...(options.outputLimitBytes ? { outputLimitBytes: options.outputLimitBytes } : {}),
      ...(options.readOnly ? { readOnly: true } : {}),
    },
  );
}

/** A digest of every entry under `dir` (names, modes, sizes, link targets, contents): equal before and after means untouched. */
export async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (d: string): Promise<void> => {
    const entries = (await readdir(d)).sort();
    for (const name of entries) {
      const p = join(d, name);
      const s = await lstat(p);
      // Not nlink: breaking a hard link to a file changes its count, not the file.
      hash.update(`${p}\0${s.mode}\0${s.size}\0`);
      if (s.isSymbolicLink()) hash.update(await readlink(p));
      else if (s.isDirectory()) await walk(p);
      else if (s.isFile()) hash.update(await readFile(p));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}

/** Every string inside a value (arguments, deeply). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** Paths under `base` that appear in `text` but were not part of what the caller sent: a leak. */
export function leakedPaths(text: string, base: string, inputs: string[]): string[] {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = text.match(new RegExp(`${escaped}[^\\s"'\\]]*`, 'g')) ?? [];
  // An error may quote the caller's own input, with control characters escaped.
  const quoted = inputs.flatMap((i) => [i, escapeControlChars(i)]);
  return found.filter((p) => !quoted.some((i) => i.includes(p)));
}

/** The first text block of a tool result: the test kit's. */
export { textOf };
