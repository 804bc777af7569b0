import { type Dirent, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import {
  allPages,
  built,
  type Op,
  type OpResult,
  type Scenario,
  type SessionContext,
  single,
} from '../../scenario.js';
import type { Session } from '../../session.js';
import { count, size } from '../labels.js';
import { EDIT_FROM, EDIT_TO, type FixtureSizes, type FsFixtures } from './fixtures.js';
import { listScenarios } from './list-scenarios.js';

type Fs = Scenario<FsFixtures>;
type Ctx = SessionContext<FsFixtures>;

const NONE: OpResult = { answers: [] };
/** Our directory_tree stops at 2000 entries unless asked; the scenario wants the whole tree. */
const OUR_MAX_TREE_ENTRIES = 50_000;
/** Room for the whole 52k-entry tree as text (about 1.3 MiB); the highest budget ours accepts. */
const TREE_OUTPUT_LIMIT = 4 * 1024 * 1024;

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The floor's walk: one readdir per directory, entries in name order, links not followed. It uses
 * the synchronous calls on purpose: with nothing else to serve, they skip a thread-pool round trip
 * per directory and per file, so this is the least plain Node can spend on the work.
 */
function floorWalk(
  root: string,
  visit: (relative: string, name: string, depth: number, entry: Dirent, path: string) => void,
): void {
  const descend = (dir: string, relative: string, depth: number): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    entries.sort(byName);
    for (const entry of entries) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const path = join(dir, entry.name);
      visit(rel, entry.name, depth, entry, path);
      if (entry.isDirectory()) descend(path, rel, depth + 1);
    }
  };
  descend(root, '', 1);
}

function floorTree(root: string): Op {
  return async () => {
    const lines = [`${root}/`];
    floorWalk(root, (_rel, name, depth, entry) => {
      lines.push('  '.repeat(depth) + name + (entry.isDirectory() ? '/' : ''));
    });
    return built(lines.join('\n'));
  };
}

function floorSearch(root: string, pattern: string): Op {
  const match = picomatch(pattern, { dot: true });
  return async () => {
    const hits: string[] = [];
    floorWalk(root, (rel, _name, _depth, _entry, path) => {
      if (match(rel)) hits.push(path);
    });
    return built(hits.join('\n'));
  };
}

function floorSearchContent(root: string, needle: string): Op {
  const query = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return async () => {
    const hits: string[] = [];
    floorWalk(root, (_rel, _name, _depth, entry, path) => {
      if (!entry.isFile()) return;
      const text = readFileSync(path, 'utf8');
      // Whole-file test first: most files have no hit, and splitting them into lines is wasted work.
      if (!query.test(text)) return;
      text.split('\n').forEach((line, i) => {
        if (query.test(line)) hits.push(`${path}:${i + 1}: ${line}`);
      });
    });
    return built(hits.join('\n'));
  };
}

const readOp =
  (file: (f: FsFixtures) => string) =>
  (session: Session, { fixtures }: Ctx): Op =>
  () =>
    single(session, 'read_text_file', { path: file(fixtures) });

const floorRead =
  (file: (f: FsFixtures) => string) =>
  ({ fixtures }: Ctx): Op =>
  async () =>
    built(readFileSync(file(fixtures), 'utf8'));

const writeOp = (session: Session, { fixtures, tag }: Ctx): Op => {
  const content = 'w'.repeat(fixtures.sizes.smallFileBytes - 1) + '\n';
  // A new file per call: replacing one would ask the user first on our server, which is another path.
  return (i) => single(session, 'write_file', { path: join(fixtures.scratch, `${tag}-${i}.txt`), content });
};

/** Copies the 16 KiB template for this session; call i toggles its one marker line back and forth. */
async function editTarget({
  fixtures,
  tag,
}: Ctx): Promise<{ path: string; edit: (i: number) => [string, string] }> {
  const path = join(fixtures.scratch, `${tag}-edit.txt`);
  await copyFile(fixtures.editTemplate, path);
  return { path, edit: (i) => (i % 2 === 0 ? [EDIT_FROM, EDIT_TO] : [EDIT_TO, EDIT_FROM]) };
}

const editOp = async (session: Session, ctx: Ctx): Promise<Op> => {
  const { path, edit } = await editTarget(ctx);
  return (i) => {
    const [oldText, newText] = edit(i);
    return single(session, 'edit_file', { path, edits: [{ oldText, newText }] });
  };
};

const treeGoals = (what: string): Fs['goals'] => [
  { metric: 'p50', versus: 'peer', atMost: 0.2, text: `${what} ≥ 5× faster than official` },
  { metric: 'p50', versus: 'floor', atMost: 2, text: `${what} within 2× of floor` },
];

/**
 * The filesystem scenarios of the server issue, in report order, titled with the sizes in use.
 * Cold start and tools/list are the generic ones every server gets (on its test world).
 */
export function filesystemScenarios(sizes: FixtureSizes): Fs[] {
  return [
    {
      id: 'read-1k',
      title: `read ${size(sizes.smallFileBytes)}`,
      kind: 'calls',
      warmup: 5,
      calls: 200,
      parallel: { inflight: 4, calls: 400 },
      goals: [{ metric: 'p50', versus: 'peer', atMost: 1, text: '1 KiB read no slower than official' }],
      server: { ours: readOp((f) => f.smallFile), official: readOp((f) => f.smallFile) },
      floor: floorRead((f) => f.smallFile),
    },
    {
      id: 'read-10m',
      title: `read ${size(sizes.bigFileBytes)}`,
      kind: 'calls',
      warmup: 1,
      calls: 5,
      goals: [{ metric: 'survives', text: '10 MiB read never kills the client' }],
      server: { ours: readOp((f) => f.bigFile), official: readOp((f) => f.bigFile) },
      floor: floorRead((f) => f.bigFile),
    },
    {
      id: 'read-10m-x4',
      title: `read ${size(sizes.bigFileBytes)}, 4 in flight`,
      kind: 'calls',
      warmup: 0,
      calls: 1,
      // One batch of four: the peak with four answers in flight is the point, and the official's batch takes seconds.
      parallel: { inflight: 4, calls: 4 },
      latencyFrom: 'parallel',
      goals: [
        { metric: 'survives', text: '10 MiB read never kills the client' },
        { metric: 'peakRss', versus: 'peer', atMost: 0.5, text: 'peak RSS ≤ ½ official' },
      ],
      server: { ours: readOp((f) => f.bigFile), official: readOp((f) => f.bigFile) },
      floor: floorRead((f) => f.bigFile),
    },
    ...listScenarios(sizes),
    ...(['small', 'large'] as const).map(
      (which): Fs => ({
        id: `tree-${which}`,
        title: `tree ${count(which === 'small' ? sizes.smallTreeFiles : sizes.largeTreeFiles)}`,
        kind: 'calls',
        warmup: 1,
        calls: which === 'small' ? 5 : 3,
        ...(which === 'small' ? { parallel: { inflight: 4, calls: 8 } } : {}),
        goals: which === 'large' ? treeGoals('directory_tree 50k') : [],
        // The whole tree, as the official server and the floor build it: at the default 1 MiB
        // output budget ours stops at about 41k of the 52k entries, which would flatter it.
        serverArgs: { ours: ['--output-limit', String(TREE_OUTPUT_LIMIT)] },
        server: {
          ours:
            (s, { fixtures }) =>
            () =>
              single(s, 'directory_tree', {
                path: which === 'small' ? fixtures.smallTree : fixtures.largeTree,
                maxEntries: OUR_MAX_TREE_ENTRIES,
              }),
          official:
            (s, { fixtures }) =>
            () =>
              single(s, 'directory_tree', {
                path: which === 'small' ? fixtures.smallTree : fixtures.largeTree,
              }),
        },
        floor: ({ fixtures }) => floorTree(which === 'small' ? fixtures.smallTree : fixtures.largeTree),
      }),
    ),
    ...(['small', 'large'] as const).map(
      (which): Fs => ({
        id: `search-${which}`,
        title: `search ${count(which === 'small' ? sizes.smallTreeFiles : sizes.largeTreeFiles)}`,
        kind: 'calls',
        warmup: 1,
        calls: which === 'small' ? 5 : 3,
        ...(which === 'small' ? { parallel: { inflight: 4, calls: 8 } } : {}),
        goals: which === 'large' ? treeGoals('search_files 50k') : [],
        server: {
          ours:
            (s, { fixtures }) =>
            () =>
              allPages(s, 'search_files', {
                path: which === 'small' ? fixtures.smallTree : fixtures.largeTree,
                pattern: fixtures.treePattern,
              }),
          official:
            (s, { fixtures }) =>
            () =>
              single(s, 'search_files', {
                path: which === 'small' ? fixtures.smallTree : fixtures.largeTree,
                pattern: fixtures.treePattern,
              }),
        },
        floor: ({ fixtures }) =>
          floorSearch(which === 'small' ? fixtures.smallTree : fixtures.largeTree, fixtures.treePattern),
      }),
    ),
    {
      id: 'search-content-large',
      title: `search_content ${count(sizes.largeTreeFiles)}`,
      kind: 'calls',
      warmup: 1,
      calls: 3,
      goals: [],
      server: {
        ours:
          (s, { fixtures }) =>
          () =>
            allPages(s, 'search_content', { path: fixtures.largeTree, query: fixtures.needle }),
        // The official server has no content search.
        official: undefined,
      },
      floor: ({ fixtures }) => floorSearchContent(fixtures.largeTree, fixtures.needle),
    },
    {
      id: 'write-1k',
      title: `write ${size(sizes.smallFileBytes)}`,
      kind: 'calls',
      warmup: 3,
      calls: 100,
      parallel: { inflight: 4, calls: 200 },
      goals: [],
      server: { ours: writeOp, official: writeOp },
      floor:
        ({ fixtures, tag }) =>
        async (i) => {
          const content = 'w'.repeat(fixtures.sizes.smallFileBytes - 1) + '\n';
          writeFileSync(join(fixtures.scratch, `${tag}-${i}.txt`), content, { flag: 'wx' });
          return NONE;
        },
    },
    {
      id: 'edit-16k',
      title: `edit ${size(sizes.editFileBytes)}`,
      kind: 'calls',
      warmup: 2,
      // One after another only: concurrent edits of one file would race by design.
      calls: 50,
      goals: [{ metric: 'p50', versus: 'peer', atMost: 1, text: 'edit of 16 KiB no slower than official' }],
      server: {
        ours: editOp,
        official: editOp,
      },
      floor: async (ctx) => {
        const { path, edit } = await editTarget(ctx);
        return async (i) => {
          const [oldText, newText] = edit(i);
          writeFileSync(path, readFileSync(path, 'utf8').replace(oldText, newText));
          return NONE;
        };
      },
    },
  ];
}
