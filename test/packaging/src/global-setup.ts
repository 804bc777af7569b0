/**
 * Packs, installs and releases once for the whole run: every test file reads the same tarballs,
 * the same user install of them and the same bundles, so the files agree on what was shipped and
 * none repeats the slow part.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installTarballs } from './install.js';
import { type PackedPackage, packAll } from './pack.js';
import { releaseAll } from './releases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Scratch folder for the run; removed at the end. */
    scratch: string;
    packed: PackedPackage[];
    /** An empty project with every tarball installed in it, as a user installs them. */
    installed: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Outside the workspace on purpose: npm must not see the monorepo's root package.json.
  const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-packaging-'));
  const remove = () => rmSync(scratch, { recursive: true, force: true });
  try {
    project.provide('scratch', scratch);
    const packed = await packAll(join(scratch, 'tarballs'));
    project.provide('packed', packed);
    const installed = join(scratch, 'user-project');
    await installTarballs(
      installed,
      packed.map((p) => p.tarball),
    );
    project.provide('installed', installed);
    await releaseAll(scratch);
  } catch (error) {
    // Vitest runs no teardown for a setup that threw.
    remove();
    throw error;
  }
  return remove;
}
