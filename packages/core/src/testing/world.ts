/**
 * A server's test world: how the outside-in test layers (end to end, conformance, HTTP security,
 * packaging, `npm start`, the bench) run a server they know nothing else about. Each server folder
 * exports one as `world` from `test/world.ts`.
 */

/** The two protocol revisions the conformance suite scores. */
export type ConformanceRevision = '2025-11-25' | '2026-07-28';

/** A read-only tool call, and a text its result contains. */
export interface ReadCall {
  tool: string;
  args: Record<string, string | number | boolean>;
  expect: string;
}

/** One world, built: the bin's arguments for it and what must work there. */
export interface WorldInstance {
  /** The bin's arguments after the common flags: directories, a repository, a database, a URL. */
  args: string[];
  /** Directories the client offers as roots; omit for a server that has none to narrow. */
  roots?: string[];
  /**
   * Two read-only calls that succeed on this world, each with a text its result contains and the
   * other's does not: the HTTP layer checks that answers to simultaneous calls never cross.
   */
  reads: [ReadCall, ReadCall];
  /**
   * What a user would enter in the bundle's settings form (the keys of the cli's `settings`) to
   * serve this world: the packaging layer starts the server's `.mcpb` with them the way a host
   * does. Omit for a server without settings.
   */
  bundleSettings?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  /** Stops what the world started (a local HTTP server); its files are the caller's to remove. */
  close?(): Promise<void>;
}

export interface TestWorld {
  /** Tools `tools/list` must include, whatever the flags. */
  tools: string[];
  /**
   * Builds the world in `dir`, an empty directory the caller removes afterwards: sample files, a
   * repository, a database, a local HTTP server on 127.0.0.1. Nothing outside `dir` may change.
   */
  setup(dir: string): Promise<WorldInstance> | WorldInstance;
  /**
   * Conformance scenarios (`scenario` or `scenario:check-id`) this server fails on purpose, with
   * the reason, per revision, beyond the ones every real server fails because they call the
   * suite's own `test_*` fixtures by name (the conformance layer lists those).
   */
  conformance?: Partial<Record<ConformanceRevision, Record<string, string>>>;
}

/**
 * Declares a server's test world with its type checked.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { join } from 'node:path';
 * export const world = defineTestWorld({
 *   tools: ['read_note'],
 *   async setup(dir) {
 *     await writeFile(join(dir, 'alpha.md'), '# Alpha\nApples.\n');
 *     await writeFile(join(dir, 'beta.md'), '# Beta\nBananas.\n');
 *     const read = (name: string, expect: string) => ({ tool: 'read_note', args: { name }, expect });
 *     return { args: [dir], roots: [dir], reads: [read('alpha', 'Apples'), read('beta', 'Bananas')] };
 *   },
 * });
 * ```
 */
export function defineTestWorld(world: TestWorld): TestWorld {
  return world;
}
