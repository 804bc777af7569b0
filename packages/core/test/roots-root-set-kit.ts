/**
 * The sandbox the RootSet tests (roots-root-set-*.test.ts) run in: a fresh real temp dir per test
 * with an allowed root, look-alike siblings and an outside area, a RootSet over it, and the check
 * that a denial names no host path.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { RootSet } from '../src/roots/root-set.js';

/** A fresh real temp dir with an allowed root, look-alike siblings and an outside area. */
export interface Sandbox {
  tmp: string;
  allowed: string;
  outside: string;
  cleanup(): Promise<void>;
}

async function makeSandbox(): Promise<Sandbox> {
  // realpath: os.tmpdir() itself may be a symlink (macOS /var → /private/var).
  const tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcpkit-roots-')));
  const allowed = path.join(tmp, 'allowed');
  const outside = path.join(tmp, 'outside');
  for (const dir of [allowed, outside, path.join(tmp, 'allowed_evil'), path.join(tmp, 'allowedX')]) {
    await mkdir(dir);
  }
  await writeFile(path.join(allowed, 'inside.txt'), 'inside');
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  await writeFile(path.join(tmp, 'allowed_evil', 'x'), 'evil');
  return { tmp, allowed, outside, cleanup: () => rm(tmp, { recursive: true, force: true }) };
}

/**
 * Asserts that `promise` rejects with a UserError whose text (apart from the quoted input itself)
 * names no host path and none of `forbidden`. Returns the message for further checks.
 */
export async function expectUserError(
  promise: Promise<unknown>,
  input: string,
  forbidden: readonly string[],
): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  const message = (error as UserError).message;
  const withoutInput = message.split(input).join('');
  for (const text of forbidden) expect(withoutInput).not.toContain(text);
  return message;
}

/** The sandbox of the running test, and a RootSet over its allowed directory (home: allowed/home). */
export let box: Sandbox;
export let roots: RootSet;

/** Gives every test of the calling file a fresh sandbox and RootSet, removed after it. */
export function useSandbox(): void {
  beforeEach(async () => {
    box = await makeSandbox();
    roots = await RootSet.create([box.allowed], { home: path.join(box.allowed, 'home') });
  });
  afterEach(async () => {
    await box.cleanup();
  });
}

/** Denied, with no host path (and not the outside dir's name) in the message beyond the input. */
export function denied(input: string, mode: 'read' | 'write' | 'create-dir' = 'read'): Promise<string> {
  return expectUserError(roots.resolve(input, { mode }), input, [box.tmp, 'outside/', 'allowed_evil']);
}
