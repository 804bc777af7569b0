/**
 * The servers under test, one row each: where the built bin is, the world it serves, and what the
 * Inspector should call on it. Adding a server means adding a row and its expected-failure files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

const distBin = (pkg: string) => join(packageDir(pkg), 'dist', 'index.js');

export const SERVERS: ServerUnderTest[] = [
  {
    name: 'example',
    bin: distBin('@mcpkit/example-server'),
    async setup(dir) {
      await writeFile(join(dir, 'alpha.md'), '# Alpha\nThe first note mentions apples.\n');
      await writeFile(join(dir, 'beta.md'), '# Beta\nBananas.\n');
      return [dir];
    },
    // The fixtures are what the suite calls by name; the notes stay served beside them.
    suiteFlags: ['--conformance-fixtures'],
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
];

/** The two protocol revisions every server is scored against, each on its own wire. */
export const ERAS = ['2025-11-25', '2026-07-28'] as const;
export type Era = (typeof ERAS)[number];
