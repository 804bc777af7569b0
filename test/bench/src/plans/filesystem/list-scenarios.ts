import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { allPages, built, type Op, type Scenario, type SessionContext, single } from '../../scenario.js';
import { count } from '../labels.js';
import type { FixtureSizes, FsFixtures } from './fixtures.js';

type Fs = Scenario<FsFixtures>;
type Ctx = SessionContext<FsFixtures>;

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The floor of a listing: one readdir, name order, the official line per entry. */
const floorList =
  (withSizes: boolean) =>
  ({ fixtures }: Ctx): Op =>
  async () => {
    const entries = readdirSync(fixtures.wideDir, { withFileTypes: true }).sort(byName);
    const lines = entries.map((e) => {
      const tag = e.isDirectory() ? '[DIR]' : '[FILE]';
      if (!withSizes) return `${tag} ${e.name}`;
      const size = e.isFile() ? String(lstatSync(join(fixtures.wideDir, e.name)).size) : '';
      return `${tag} ${e.name.padEnd(30)} ${size.padStart(10)}`;
    });
    return built(lines.join('\n'));
  };

/**
 * The 10k-entry listings of the issue: list_directory and list_directory_with_sizes, one call at a
 * time and 8 in flight (the "x8" rows report the latency of the calls made with 8 outstanding).
 * Ours follows every page; the official answers the whole listing in one call.
 */
export function listScenarios(sizes: FixtureSizes): Fs[] {
  const tools = [
    { id: 'list', tool: 'list_directory', label: 'list' },
    { id: 'list-sizes', tool: 'list_directory_with_sizes', label: 'list with sizes' },
  ] as const;
  return tools.flatMap(({ id, tool, label }): Fs[] => {
    const server: Fs['server'] = {
      ours:
        (s, { fixtures }) =>
        () =>
          allPages(s, tool, { path: fixtures.wideDir }),
      official:
        (s, { fixtures }) =>
        () =>
          single(s, tool, { path: fixtures.wideDir }),
    };
    const floor = floorList(tool === 'list_directory_with_sizes');
    const goals = (what: string): Fs['goals'] => [
      { metric: 'p50', versus: 'peer', atMost: 1, text: `${what} no slower than official` },
      { metric: 'peakRss', versus: 'peer', atMost: 1, text: `${what} peak RSS ≤ official` },
    ];
    const title = `${label} ${count(sizes.wideDirEntries)} entries`;
    return [
      {
        id: `${id}-10k`,
        title,
        kind: 'calls',
        warmup: 1,
        calls: 5,
        parallel: { inflight: 4, calls: 4 },
        goals: goals(title),
        server,
        floor,
      },
      {
        id: `${id}-10k-x8`,
        title: `${title}, 8 in flight`,
        kind: 'calls',
        warmup: 1,
        calls: 1,
        parallel: { inflight: 8, calls: 16 },
        latencyFrom: 'parallel',
        goals: goals(`${title}, 8 in flight,`),
        server,
        floor,
      },
    ];
  });
}
