/**
 * Installs tarballs the way a user would: plain `npm install` of the files into an empty folder
 * outside the monorepo, dependencies from the registry (the local cache first).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOk } from './run.js';

export const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline'];

/**
 * A guard against a hung install, not a judgement of its speed. A native dependency whose prebuilt
 * binary cannot be downloaded (a machine that reaches only the npm registry) is compiled from
 * source during the install, as a user's npm would: about 75 s of CPU for better-sqlite3, several
 * times that in wall time on a busy 2-core machine.
 */
const INSTALL_TIMEOUT_MS = 900_000;

/** Creates `dir` with a bare package.json and installs `tarballs` into it. */
export async function installTarballs(dir: string, tarballs: string[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'user-project', private: true }, null, 2)}\n`,
  );
  await runOk('npm', [...NPM_INSTALL, ...tarballs], { cwd: dir, timeoutMs: INSTALL_TIMEOUT_MS });
}

/** Where the lockfile says each installed package came from, by package name. */
export function resolvedSources(dir: string): Map<string, string> {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { resolved?: string }>;
  };
  const sources = new Map<string, string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const name = path.replace(/^.*node_modules\//, '');
    if (path !== '' && entry.resolved !== undefined) sources.set(name, entry.resolved);
  }
  return sources;
}
