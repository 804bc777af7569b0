/**
 * Every server under attack, one line each. A server is named by its package; the bin comes from
 * that package's own `bin` field, so the suite runs exactly what `npm run build` produced.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** A read-only tool call whose answer contains `expect`, and nothing the other call's does. */
export interface ReadCall {
  tool: string;
  arguments: Record<string, unknown>;
  expect: string;
}

export interface Fixture {
  /** Positional arguments for the bin (its directories). */
  args: string[];
  /** Two calls with different answers, for the "answers never cross" check. */
  reads: [ReadCall, ReadCall];
  cleanup(): Promise<void>;
}

export interface ServerUnderTest {
  name: string;
  /** Absolute path of the built bin script. */
  bin: string;
  /** A tool every good client must find in `tools/list`. */
  tool: string;
  fixture(): Promise<Fixture>;
}

const require = createRequire(import.meta.url);

/** The bin script of workspace package `pkg` (its only `bin` entry). */
function binOf(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  const [script] = Object.values(manifest.bin ?? {});
  if (script === undefined) throw new Error(`${pkg} declares no bin`);
  return resolve(dirname(manifestPath), script);
}

/** Distinct words, so a crossed answer is unmistakable. */
const NOTES = { alpha: 'apples from the alpha note', beta: 'bananas from the beta note' } as const;

/**
 * A server that serves one directory: a temp directory holding `alpha.md` and `beta.md`, and a
 * read tool whose arguments `argsFor` builds from the directory and the note's base name.
 */
function directoryServer(
  name: string,
  pkg: string,
  tool: string,
  argsFor: (dir: string, note: keyof typeof NOTES) => Record<string, unknown>,
): ServerUnderTest {
  return {
    name,
    bin: binOf(pkg),
    tool,
    async fixture() {
      const dir = await mkdtemp(join(tmpdir(), `mcpkit-security-${name}-`));
      for (const [note, text] of Object.entries(NOTES)) await writeFile(join(dir, `${note}.md`), `${text}\n`);
      const read = (note: keyof typeof NOTES): ReadCall => ({
        tool,
        arguments: argsFor(dir, note),
        expect: NOTES[note],
      });
      return {
        args: [dir],
        reads: [read('alpha'), read('beta')],
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  };
}

export const SERVERS: ServerUnderTest[] = [
  directoryServer('example', '@mcpkit/example-server', 'read_note', (_dir, note) => ({ name: note })),
  directoryServer('filesystem', '@mcpkit/server-filesystem', 'read_text_file', (dir, note) => ({
    path: join(dir, `${note}.md`),
  })),
];
