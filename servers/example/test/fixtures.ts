import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { textOf } from '@mcpkit/core/testing';
import { createExampleApp } from '../src/server.js';

/** A temporary notes directory with three notes, a sibling "outside" directory, and the app. */
export async function notesFixture(options: { pageSize?: number; readOnly?: boolean } = {}) {
  const base = await mkdtemp(join(tmpdir(), 'mcpkit-example-'));
  const dir = join(base, 'notes');
  const outside = join(base, 'outside');
  await mkdir(dir);
  await mkdir(outside);
  await writeFile(join(dir, 'alpha.md'), '# Alpha\nThe first note mentions apples.\n');
  await writeFile(join(dir, 'beta.md'), '# Beta\nBananas, and more apples.\n');
  await writeFile(join(dir, 'gamma.md'), '# Gamma\nNothing fruity here.\n');
  await writeFile(join(outside, 'secret.md'), 'top secret\n');
  const app = createExampleApp({
    roots: await RootSet.create([dir]),
    notifyDebounceMs: 20,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
  });
  return {
    base,
    dir,
    outside,
    app,
    async cleanup() {
      await app.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** The first text block of a tool result: the test kit's. */
export { textOf };

/**
 * Resolves once `signal` has fired: the handler holding it saw the cancellation. It has no
 * deadline of its own; a signal that never fires is left to the test's timeout.
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Polls `check` every 10 ms until it holds; no deadline of its own, like {@link untilAborted}. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}
