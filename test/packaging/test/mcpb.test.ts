/**
 * Every server listed for the MCP Registry (its package.json has `mcpName`) ships an MCP Bundle:
 * `mcpkit-bundle release` makes it, mcpb's own checker accepts its manifest, and the bundle,
 * unpacked into an empty folder, starts the way a host starts it (the manifest's command,
 * arguments and environment, with `${__dirname}` and the user's settings substituted by mcpb's
 * own code) and serves the server's test world in both protocol eras with nothing installed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadWorld } from '@mcpkit/core/testing';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { released, releaseOf } from '../src/releases.js';
import { run, runOk } from '../src/run.js';
import { ROOT } from '../src/workspaces.js';
import { expectServesWorld } from '../src/world-session.js';

const scratch = inject('scratch');

/** The bundle checker the build tool depends on, as the workspace installed it. */
const fromBundle = createRequire(join(ROOT, 'packages', 'bundle', 'package.json'));
/** mcpb's dist/ folder: its main module (index.js) is there, and its command line in cli/. */
const MCPB_DIST = dirname(fromBundle.resolve('@anthropic-ai/mcpb'));
const MCPB_CLI = join(MCPB_DIST, 'cli', 'cli.js');

interface McpConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}
type GetMcpConfig = (options: {
  manifest: unknown;
  extensionPath: string;
  systemDirs: Record<string, string>;
  userConfig: Record<string, unknown>;
  pathSeparator: string;
}) => Promise<McpConfig | undefined>;

it('finds the servers listed for the registry', () => {
  expect(released.length).toBeGreaterThan(0);
});

describe.each(released)('$name', (server) => {
  const unpacked = join(scratch, 'mcpb-unpacked', server.name);
  let manifest: { server: { mcp_config: unknown }; user_config?: Record<string, unknown> } & Record<
    string,
    unknown
  >;

  beforeAll(async () => {
    const { bundle } = releaseOf(scratch, server);
    // Unpacked by mcpb into a folder with nothing in it and no node_modules above it.
    mkdirSync(unpacked, { recursive: true });
    expect(readdirSync(unpacked)).toEqual([]);
    await runOk('node', [MCPB_CLI, 'unpack', bundle, unpacked], { cwd: scratch });
    manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
  }, 180_000);

  it('is accepted by mcpb validate, icon included, and lists the tools', async () => {
    const world = await loadWorld(server);
    const result = await run('node', [MCPB_CLI, 'validate', join(unpacked, 'manifest.json')], {
      cwd: scratch,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('Manifest schema validation passes');
    expect(manifest.icon).toBe('icon.png');
    const listed = (manifest.tools as { name: string }[]).map((t) => t.name);
    expect(listed).toEqual(expect.arrayContaining(world.tools));
    expect(existsSync(join(unpacked, 'icon.png'))).toBe(true);
  });

  it('carries its license and README, and no type declarations or source maps', () => {
    expect(existsSync(join(unpacked, 'LICENSE'))).toBe(true);
    expect(existsSync(join(unpacked, 'README.md'))).toBe(true);
    const files = readdirSync(unpacked, { recursive: true }) as string[];
    expect(files.filter((f) => /\.d\.ts$|\.map$|\.tsbuildinfo$/.test(f))).toEqual([]);
    for (let dir = unpacked; dirname(dir) !== dir; dir = dirname(dir)) {
      if (dir !== unpacked) expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    }
  });

  it('names only this platform when it carries a native binary', () => {
    const compatibility = manifest.compatibility as { platforms: string[] };
    const binaries = (readdirSync(unpacked, { recursive: true }) as string[]).filter((f) =>
      f.endsWith('.node'),
    );
    if (binaries.length > 0) {
      expect(compatibility.platforms).toEqual([process.platform]);
      expect(binaries.every((f) => f.split(sep)[0] === 'node_modules')).toBe(true);
    } else {
      expect([...compatibility.platforms].sort()).toEqual(['darwin', 'linux', 'win32']);
    }
  });

  it.each(['legacy', 'modern'] as const)(
    'starts as a host starts it and serves its world in the %s era',
    async (era) => {
      const dir = join(scratch, 'mcpb-worlds', `${server.name}-${era}`);
      await expectServesWorld(await loadWorld(server), {
        dir,
        launch: async (built) => {
          expect(built.bundleSettings, `${server.path}/test/world.ts gives no bundleSettings`).toBeDefined();
          const { getMcpConfigForManifest } = (await import(
            pathToFileURL(join(MCPB_DIST, 'index.js')).href
          )) as {
            getMcpConfigForManifest: GetMcpConfig;
          };
          const config = await getMcpConfigForManifest({
            manifest,
            extensionPath: unpacked,
            systemDirs: {},
            userConfig: { ...built.bundleSettings },
            pathSeparator: sep,
          });
          if (config === undefined)
            throw new Error('mcpb found a required setting missing from the sample settings');
          // Every placeholder was filled: a host passes nothing through unreplaced.
          expect(JSON.stringify(config)).not.toContain('${');
          return { command: config.command, args: config.args ?? [], env: config.env ?? {}, cwd: dir };
        },
        eras: [era],
        check: (session) => {
          expect(session.client.getServerVersion()?.version).toBe(manifest.version);
          expect(session.client.getNegotiatedProtocolVersion()).toBe(
            era === 'legacy' ? '2025-11-25' : '2026-07-28',
          );
        },
      });
    },
  );
});
