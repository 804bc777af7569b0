/**
 * The directories a server's command line names: served as allowed roots, and a directory that
 * cannot be served is a usage error in one sentence (the bin exits 2 with it), not a crash.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logging/index.js';
import { commandLineRoots, UsageError } from '../src/runner/index.js';

describe('commandLineRoots', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpkit-cli-roots-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('serves the directories given, each under the stall deadline', async () => {
    const roots = await commandLineRoots([dir], silentLogger);
    expect(roots.roots.map((r) => r.path)).toEqual([await realpath(dir)]);
    expect(roots.stallGuard).toBeDefined();
  });

  it('turns a directory it cannot serve into a usage error of one sentence', async () => {
    const missing = join(dir, 'missing');
    const error = await commandLineRoots([missing], silentLogger).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/ does not exist or cannot be accessed\.$/);
  });
});
