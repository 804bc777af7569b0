/**
 * The servers listed for the MCP Registry (a package.json with `mcpName`) and their releases:
 * `mcpkit-bundle release` runs once per server for the whole run (the global setup), and every
 * test that checks a bundle or a server.json reads the same files.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DiscoveredServer, discoverServers } from '@mcpkit/core/testing';
import { runOk } from './run.js';
import { ROOT, readManifest } from './workspaces.js';

/** The build tool's command, as the workspace installed it. */
export const BUNDLE_CLI = join(ROOT, 'packages', 'bundle', 'bin', 'mcpkit-bundle.js');

/** The registry name a package claims (npm keeps the field; the registry checks it). */
export const mcpNameOf = (dir: string): unknown => (readManifest(dir) as { mcpName?: unknown }).mcpName;

/** Every server folder whose package claims a registry name. */
export const released: DiscoveredServer[] = discoverServers(ROOT).filter(
  (s) => typeof mcpNameOf(s.dir) === 'string',
);

/** Where this run's release of `server` is: its folder, with server.json, and the bundle in it. */
export function releaseOf(scratch: string, server: DiscoveredServer): { out: string; bundle: string } {
  const out = join(scratch, 'releases', server.name);
  const [file] = readdirSync(out).filter((f) => f.endsWith('.mcpb'));
  if (file === undefined) throw new Error(`mcpkit-bundle release wrote no .mcpb into ${out}`);
  return { out, bundle: join(out, file) };
}

/** Releases every listed server into `<scratch>/releases/<name>`, one after another. */
export async function releaseAll(scratch: string): Promise<void> {
  for (const server of released) {
    const out = join(scratch, 'releases', server.name);
    await runOk('node', [BUNDLE_CLI, 'release', '--out', out], { cwd: server.dir, timeoutMs: 120_000 });
  }
}
