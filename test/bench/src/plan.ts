/**
 * What the bench runs for one server. Servers are found like in the other outside-in layers (the
 * root `workspaces` globs, through core's test kit), so nothing here names one: each gets our bin
 * in both eras, the floor, and the generic scenarios of its test world; a module named after its
 * folder, `plans/<folder name>.ts`, may add peers and scenarios on fixtures of their own.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtBin, type DiscoveredServer, discoverServers, type TestWorld } from '@mcpkit/core/testing';
// The worlds are TypeScript and the built bench runs on plain Node; vite loads them without a build.
import { runnerImport } from 'vite';
import type { SealedSuite } from './scenario.js';
import type { FloorTarget, ServerTarget, Target } from './session.js';
import { worldSuite } from './world.js';

/** The repository root: this file is test/bench/src/plan.ts, or test/bench/dist/plan.js once built. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `--sizes`: the full fixtures of the servers' issues, or tiny ones for the smoke test. */
export type SizeName = 'full' | 'tiny';

export interface PlanOptions {
  sizes: SizeName;
  /** The bench's output folder: fixtures, results, and peers installed on first use. */
  outDir: string;
  /** Leave the peers out (the smoke test): a peer installed on first use is not fetched then. */
  noPeers?: boolean;
}

/** Targets and the suites they run, for one server. */
export interface Plan {
  /** The server's folder name: titles the report and names the results file. */
  server: string;
  /** In the order of the first round; later rounds rotate it. */
  targets: Target[];
  suites: SealedSuite[];
}

/** What `plans/<server folder name>.ts` exports as `extras`. */
export interface PlanExtras {
  /**
   * Other implementations of the same server. They run the generic cold start and tools/list, and
   * the extra scenarios that have an operation for their `impl`. A peer may be installed on first
   * use (see peers.ts) rather than be a dependency of the bench.
   */
  peers?(options: PlanOptions): ServerTarget[] | Promise<ServerTarget[]>;
  /** Scenarios on fixtures of their own; their ids must differ from the generic ones. */
  suites?(options: PlanOptions): SealedSuite[];
}

export const FLOOR: FloorTarget = { kind: 'floor', id: 'floor', label: 'floor (plain Node)', role: 'floor' };

/**
 * A peer server: run over the 2025 era (no peer speaks 2026 yet), with scenarios calling it as
 * `impl` (its id) and its label showing the version measured.
 */
export function peerTarget(
  id: string,
  label: string,
  bin: string,
  env?: Readonly<Record<string, string>>,
): ServerTarget {
  return { kind: 'server', id, label, role: 'peer', era: 'legacy', impl: id, bin, ...(env ? { env } : {}) };
}

/** Our bin in both eras: the 2026 rows are extra, as a peer may speak 2025 only. */
export function ourTargets(bin: string): ServerTarget[] {
  return [
    { kind: 'server', id: 'ours', label: 'mcpkit 2025', role: 'ours', era: 'legacy', impl: 'ours', bin },
    { kind: 'server', id: 'ours-2026', label: 'mcpkit 2026', role: 'ours', era: 'modern', impl: 'ours', bin },
  ];
}

/** Every server folder of the workspace, sorted by path. */
export function benchServers(root = ROOT): DiscoveredServer[] {
  return discoverServers(root);
}

async function loadWorld(server: DiscoveredServer): Promise<TestWorld> {
  const { module } = await runnerImport<{ world?: TestWorld }>(server.world);
  if (!module.world) throw new Error(`${server.world} exports no "world".`);
  return module.world;
}

/** The extras module named after the server's folder, if there is one. */
async function loadExtras(name: string): Promise<PlanExtras> {
  // Beside this file: src/plans/*.ts under vitest, dist/plans/*.js once built.
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const file = new URL(`./plans/${name}.${ext}`, import.meta.url);
  if (!existsSync(file)) return {};
  const { extras } = (await import(file.href)) as { extras?: PlanExtras };
  if (!extras) throw new Error(`${fileURLToPath(file)} exports no "extras".`);
  return extras;
}

/** Our targets, the server's peers, the floor; the world's suite, then the extras' suites. */
export async function buildPlan(server: DiscoveredServer, options: PlanOptions): Promise<Plan> {
  const bin = builtBin(server);
  const [world, extras] = await Promise.all([loadWorld(server), loadExtras(server.name)]);
  const targets: Target[] = [
    ...ourTargets(bin),
    ...(options.noPeers ? [] : ((await extras.peers?.(options)) ?? [])),
    FLOOR,
  ];
  const suites = [worldSuite(server.name, world, targets), ...(extras.suites?.(options) ?? [])];
  const ids = suites.flatMap((s) => s.scenarios.map((scenario) => scenario.id));
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new Error(`${server.name}: scenario id(s) used twice: ${twice.join(', ')}.`);
  const targetIds = targets.map((t) => t.id);
  if (new Set(targetIds).size !== targetIds.length) {
    throw new Error(`${server.name}: target ids must differ, got ${targetIds.join(', ')}.`);
  }
  return { server: server.name, targets, suites };
}

/** Every scenario of a plan, in report order. */
export const scenariosOf = (plan: Plan) => plan.suites.flatMap((suite) => suite.scenarios);
