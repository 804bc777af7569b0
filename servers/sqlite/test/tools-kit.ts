/**
 * Fixtures for the tool tests: the shared test database (kit.ts) served by the real app
 * (createSqliteApp, read-only unless asked), an export directory and an outside folder beside it,
 * a client connected in either era, and small readers for results.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { type ConnectOptions, connect, type TestSession } from '@mcpkit/core/testing';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SqliteContext } from '../src/context.js';
import { createSqliteApp } from '../src/server.js';
import { type Fixture, makeFixture, requireBuiltChild, witness } from './kit.js';

/** Both protocol eras, for `describe.each`. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

export interface ToolsWorld {
  fixture: Fixture;
  /** `<dir>/exports`, the --export-dir when `exports` was asked for. */
  exportDir: string;
  /** `<dir>/outside`, beside the export directory, holding `keep.txt`. */
  outside: string;
  app: App<SqliteContext>;
  session: TestSession;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface ToolsWorldOptions {
  write?: boolean;
  /** Change nothing at all (the runner's --read-only): no database change and no file written. */
  readOnly?: boolean;
  /** Serve `<dir>/exports` as the export directory. */
  exports?: boolean;
  outputLimitBytes?: number;
  /** The statement time limit (`--time-limit`), in ms; the server's default when left out. */
  timeLimitMs?: number;
  /** Client abilities: sampling, elicitation, roots. */
  client?: Omit<ConnectOptions, 'era' | 'transport'>;
  /** An existing fixture to serve (it is not removed on close). */
  fixture?: Fixture;
}

/** The shared fixture plus an empty `exports` folder and an `outside` folder holding `keep.txt`. */
export function toolsFixture(): Fixture {
  const fixture = makeFixture();
  mkdirSync(join(fixture.dir, 'exports'));
  mkdirSync(join(fixture.dir, 'outside'));
  writeFileSync(join(fixture.dir, 'outside', 'keep.txt'), 'outside the export directory\n');
  return fixture;
}

/**
 * A {@link toolsFixture} for a file whose calls must change nothing: built in `beforeAll` with its
 * witness taken, and in `afterAll` checked against that witness, then removed. Read `fixture` inside
 * hooks and tests only.
 */
export function useUnchangedFixture(): { readonly fixture: Fixture } {
  const held = {} as { fixture: Fixture };
  let before: ReturnType<typeof witness>;
  beforeAll(() => {
    held.fixture = toolsFixture();
    before = witness(held.fixture);
  });
  afterAll(() => {
    expect(witness(held.fixture)).toEqual(before);
    held.fixture.cleanup();
  });
  return held;
}

/** Builds the fixture (unless given, then made by {@link toolsFixture}), the app and a connected session. */
export async function toolsWorld(era: Era, options: ToolsWorldOptions = {}): Promise<ToolsWorld> {
  requireBuiltChild();
  const fixture = options.fixture ?? toolsFixture();
  const exportDir = join(fixture.dir, 'exports');
  const outside = join(fixture.dir, 'outside');
  const app = createSqliteApp({
    database: fixture.main,
    write: options.write === true,
    ...(options.readOnly ? { readOnly: true } : {}),
    ...(options.exports ? { roots: await RootSet.create([exportDir]) } : {}),
    ...(options.outputLimitBytes ? { outputLimitBytes: options.outputLimitBytes } : {}),
    ...(options.timeLimitMs ? { timeLimitMs: options.timeLimitMs } : {}),
  });
  const session = await connect(app, { era, ...options.client });
  return {
    fixture,
    exportDir,
    outside,
    app,
    session,
    call: (name, args = {}) => session.callTool(name, args),
    async close() {
      await session.close();
      await app.close();
      if (!options.fixture) fixture.cleanup();
    },
  };
}

/** The structured content of a successful result, typed for the test. */
export function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** The fenced part of a text: the boundary and what is inside it, or undefined when there is none. */
export function fenced(text: string): { boundary: string; body: string } | undefined {
  const match = /<(untrusted-data-[0-9a-f-]{36})>\n([\s\S]*?)\n<\/\1>/.exec(text);
  return match ? { boundary: match[1] as string, body: match[2] as string } : undefined;
}

/** Every entry under `dir` (links by their target, files by their sha256), for before/after checks. */
export function treeHash(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const info = lstatSync(path);
      const key = `${prefix}${name}`;
      if (info.isSymbolicLink()) out[key] = `link -> ${readlinkSync(path)}`;
      else if (info.isDirectory()) {
        out[key] = 'dir';
        walk(path, `${key}/`);
      } else out[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir, '');
  return out;
}
