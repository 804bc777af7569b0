/**
 * The servers under test, one row each: where the built bin is, the world it serves, and what the
 * Inspector should call on it. Adding a server means adding a row and its expected-failure files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir } from './runtimes.js';

export interface InspectorCall {
  tool: string;
  /** `--tool-arg key=value` pairs, given the directory the server serves. */
  args(dir: string): Record<string, string>;
  /** Text the result must contain. */
  expect: string;
}

export interface ServerUnderTest {
  name: string;
  bin: string;
  /** Fills `dir` with what the server serves; returns the bin's arguments. */
  setup(dir: string): Promise<string[]>;
  /** Extra flags for the suite run only (the Inspector drives the server as users run it). */
  suiteFlags: string[];
  /** Tools `tools/list` must include. */
  tools: string[];
  inspector: InspectorCall;
}

/** A server package's bin: the bundled `dist/bin.js` its package.json names. */
const distBin = (pkg: string) => join(packageDir(pkg), 'dist', 'bin.js');

/** This package's own fixture server, as `npm run build` compiles it (`fixture-server/` to `dist/`). */
const FIXTURES_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export const SERVERS: ServerUnderTest[] = [
  {
    name: 'example',
    bin: distBin('@mcpkit/example-server'),
    async setup(dir) {
      await writeFile(join(dir, 'alpha.md'), '# Alpha\nThe first note mentions apples.\n');
      await writeFile(join(dir, 'beta.md'), '# Beta\nBananas.\n');
      return [dir];
    },
    suiteFlags: [],
    tools: ['list_notes', 'read_note', 'search_notes', 'write_note'],
    inspector: { tool: 'read_note', args: () => ({ name: 'alpha' }), expect: 'apples' },
  },
  {
    name: 'filesystem',
    bin: distBin('@mcpkit/server-filesystem'),
    async setup(dir) {
      await writeFile(join(dir, 'hello.txt'), 'hello from the filesystem server\n');
      await mkdir(join(dir, 'docs'));
      await writeFile(join(dir, 'docs', 'guide.md'), '# Guide\n');
      return [dir];
    },
    suiteFlags: [],
    tools: ['read_text_file', 'write_file', 'list_directory', 'search_files'],
    inspector: {
      tool: 'read_text_file',
      args: (dir) => ({ path: join(dir, 'hello.txt') }),
      expect: 'hello from the filesystem server',
    },
  },
  {
    // The suite's test_* surface, built with core: every scenario applies, so it must pass them all.
    name: 'fixtures',
    bin: FIXTURES_BIN,
    setup: async () => [],
    suiteFlags: [],
    tools: ['test_simple_text', 'test_trigger_tool_change', 'json_schema_2020_12_tool', 'slow_compute'],
    inspector: {
      tool: 'test_simple_text',
      args: () => ({}),
      expect: 'This is a simple text response for testing.',
    },
  },
];

/** The two protocol revisions every server is scored against, each on its own wire. */
export const ERAS = ['2025-11-25', '2026-07-28'] as const;
export type Era = (typeof ERAS)[number];
