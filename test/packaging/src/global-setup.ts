/**
 * Packs once for the whole run: every test file reads the same tarballs, so a file that installs
 * them and a file that inspects them agree on what was shipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type PackedPackage, packAll } from './pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Scratch folder for the run; removed at the end. */
    scratch: string;
    packed: PackedPackage[];
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Outside the workspace on purpose: npm must not see the monorepo's root package.json.
  const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-packaging-'));
  const remove = () => rmSync(scratch, { recursive: true, force: true });
  try {
    project.provide('scratch', scratch);
    project.provide('packed', await packAll(join(scratch, 'tarballs')));
  } catch (error) {
    // Vitest runs no teardown for a setup that threw.
    remove();
    throw error;
  }
  return remove;
}
