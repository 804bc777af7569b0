/**
 * A server's baseline for one revision, in the conformance CLI's YAML form: the scenarios every
 * real server fails because they call the suite's own fixtures by name (the `fixture-bound`
 * files), plus the deviations the server's test world declares, each with its reason.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Era, ServerUnderTest } from './servers.js';

const FIXTURE_BOUND = (era: Era) =>
  fileURLToPath(new URL(`../test/expected-failures/fixture-bound-${era}.yaml`, import.meta.url));

/** Writes the baseline of `server` at `era` to `path` (a file the CLI and the judge both read). */
export async function writeBaseline(server: ServerUnderTest, era: Era, path: string): Promise<void> {
  const own = Object.entries(server.world.conformance?.[era] ?? {}).map(
    ([entry, reason]) => `  - ${entry} # ${reason.replace(/\s+/g, ' ')}`,
  );
  const shared = server.real ? (await readFile(FIXTURE_BOUND(era), 'utf8')).split('\n') : [];
  const entries = [...shared.filter((line) => line.startsWith('  - ')), ...own];
  // The CLI refuses an empty `server:` list; a file of comments alone reads as no expected failures.
  const text = entries.length > 0 ? `server:\n${entries.join('\n')}\n` : '# no expected failures\n';
  await writeFile(path, `# Baseline of ${server.name} at ${era}, written by the conformance test.\n${text}`);
}
