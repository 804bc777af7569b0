import type { Dirent } from 'node:fs';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { EDIT_FROM, EDIT_TO, type FsFixtures } from '../fixtures.js';
import { allPages, type Op, type OpResult, type Scenario, type SessionContext, single } from '../scenario.js';
import type { Session } from '../session.js';

type Fs = Scenario<FsFixtures>;
type Ctx = SessionContext<FsFixtures>;

const NONE: OpResult = { answers: [] };
/** A floor result: the text it built, whose size is reported like an answer's. */
const built = (text: string): OpResult => ({ answers: [], text });
/** Our directory_tree stops at 2000 entries unless asked; the scenario wants the whole tree. */
const OUR_MAX_TREE_ENTRIES = 50_000;

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The floor's walk: one readdir per directory, entries in name order, links not followed. It is
 * what a plain Node script would do, and what the servers must do at least.
 */
async function floorWalk(
  root: string,
  visit: (relative: string, name: string, depth: number, entry: Dirent, path: string) => void | Promise<void>,
): Promise<void> {
  const descend = async (dir: string, relative: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort(byName);
    for (const entry of entries) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const path = join(dir, entry.name);
      await visit(rel, entry.name, depth, entry, path);
      if (entry.isDirectory()) await descend(path, rel, depth + 1);
    }
  };
  await descend(root, '', 1);
}

function floorTree(root: string): Op {
  return async () => {
    const lines = [`${root}/`];
    await floorWalk(root, (_rel, name, depth, entry) => {
      lines.push('  '.repeat(depth) + name + (entry.isDirectory() ? '/' : ''));
    });
    return built(lines.join('\n'));
  };
}

function floorSearch(root: string, pattern: string): Op {
  const match = picomatch(pattern, { dot: true });
  return async () => {
    const hits: string[] = [];
    await floorWalk(root, (rel, _name, _depth, _entry, path) => {
      if (match(rel)) hits.push(path);
    });
    return built(hits.join('\n'));
  };
}

function floorSearchContent(root: string, needle: string): Op {
  const query = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return async () => {
    const hits: string[] = [];
    await floorWalk(root, async (_rel, _name, _depth, entry, path) => {
      if (!entry.isFile()) return;
      const text = await readFile(path, 'utf8');
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
  async () => {
    return built(await readFile(file(fixtures), 'utf8'));
  };

const writeOp = (session: Session, { fixtures, tag }: Ctx): Op => {
  const content = 'w'.repeat(fixtures.sizes.smallFileBytes - 1) + '\n';
  // A new file per call: replacing one would ask the user first on our server, which is another path.
  return (i) => single(session, 'write_file', { path: join(fixtures.scratch, `${tag}-${i}.txt`), content });
};

/** Copies the 16 KiB template for this session; call i toggles its one marker line back and forth. */
async function editTarget({ fixtures, tag }: Ctx): Promise<{ path: string; edit: (i: number) => [string, string] }> {
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

/** The filesystem scenarios of the server issue, in report order. */
export function filesystemScenarios(): Fs[] {
  return [
    {
      id: 'cold-start',
      title: 'cold start',
      kind: 'coldStart',
      warmup: 0,
      calls: 3,
      goals: [{ metric: 'p50', versus: 'peer', atMost: 1, text: 'cold start no slower than official' }],
      server: { ours: () => () => Promise.resolve(NONE), official: () => () => Promise.resolve(NONE) },
    },
    {
      id: 'tools-list',
      title: 'tools/list',
      kind: 'calls',
      warmup: 2,
      calls: 30,
      parallel: { inflight: 4, calls: 40 },
      goals: [],
      server: {
        ours: (s) => async () => ((await s.listTools()), NONE),
        official: (s) => async () => ((await s.listTools()), NONE),
      },
    },
    {
      id: 'read-1k',
      title: 'read 1 KiB',
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
      title: 'read 10 MiB',
      kind: 'calls',
      warmup: 1,
      calls: 5,
      goals: [{ metric: 'survives', text: '10 MiB read never kills the client' }],
      server: { ours: readOp((f) => f.bigFile), official: readOp((f) => f.bigFile) },
      floor: floorRead((f) => f.bigFile),
    },
    {
      id: 'read-10m-x4',
      title: 'read 10 MiB, 4 in flight',
      kind: 'calls',
      warmup: 0,
      calls: 1,
      parallel: { inflight: 4, calls: 8 },
      latencyFrom: 'parallel',
      goals: [
        { metric: 'survives', text: '10 MiB read never kills the client' },
        { metric: 'peakRss', versus: 'peer', atMost: 0.5, text: 'peak RSS ≤ ½ official' },
      ],
      server: { ours: readOp((f) => f.bigFile), official: readOp((f) => f.bigFile) },
      floor: floorRead((f) => f.bigFile),
    },
    {
      id: 'list-10k',
      title: 'list 10k entries',
      kind: 'calls',
      warmup: 1,
      calls: 5,
      parallel: { inflight: 4, calls: 4 },
      goals: [],
      server: {
        // Every page: the official answers the whole listing in one call.
        ours: (s, { fixtures }) => () => allPages(s, 'list_directory', { path: fixtures.wideDir }),
        official: (s, { fixtures }) => () => single(s, 'list_directory', { path: fixtures.wideDir }),
      },
      floor:
        ({ fixtures }) =>
        async () => {
          const entries = await readdir(fixtures.wideDir, { withFileTypes: true });
          return built(
            entries
              .sort(byName)
              .map((e) => `${e.isDirectory() ? '[DIR]' : '[FILE]'} ${e.name}`)
              .join('\n'),
          );
        },
    },
    ...(['small', 'large'] as const).map(
      (size): Fs => ({
        id: `tree-${size}`,
        title: `tree ${size === 'small' ? '5k' : '50k'}`,
        kind: 'calls',
        warmup: 1,
        calls: size === 'small' ? 5 : 3,
        ...(size === 'small' ? { parallel: { inflight: 4, calls: 8 } } : {}),
        goals: size === 'large' ? treeGoals('directory_tree 50k') : [],
        server: {
          ours: (s, { fixtures }) => () =>
            single(s, 'directory_tree', {
              path: size === 'small' ? fixtures.smallTree : fixtures.largeTree,
              maxEntries: OUR_MAX_TREE_ENTRIES,
            }),
          official: (s, { fixtures }) => () =>
            single(s, 'directory_tree', { path: size === 'small' ? fixtures.smallTree : fixtures.largeTree }),
        },
        floor: ({ fixtures }) => floorTree(size === 'small' ? fixtures.smallTree : fixtures.largeTree),
      }),
    ),
    ...(['small', 'large'] as const).map(
      (size): Fs => ({
        id: `search-${size}`,
        title: `search ${size === 'small' ? '5k' : '50k'}`,
        kind: 'calls',
        warmup: 1,
        calls: size === 'small' ? 5 : 3,
        ...(size === 'small' ? { parallel: { inflight: 4, calls: 8 } } : {}),
        goals: size === 'large' ? treeGoals('search_files 50k') : [],
        server: {
          ours: (s, { fixtures }) => () =>
            allPages(s, 'search_files', {
              path: size === 'small' ? fixtures.smallTree : fixtures.largeTree,
              pattern: fixtures.treePattern,
            }),
          official: (s, { fixtures }) => () =>
            single(s, 'search_files', {
              path: size === 'small' ? fixtures.smallTree : fixtures.largeTree,
              pattern: fixtures.treePattern,
            }),
        },
        floor: ({ fixtures }) =>
          floorSearch(size === 'small' ? fixtures.smallTree : fixtures.largeTree, fixtures.treePattern),
      }),
    ),
    {
      id: 'search-content-large',
      title: 'search_content 50k',
      kind: 'calls',
      warmup: 1,
      calls: 3,
      goals: [],
      server: {
        ours: (s, { fixtures }) => () =>
          allPages(s, 'search_content', { path: fixtures.largeTree, query: fixtures.needle }),
        // The official server has no content search.
        official: undefined,
      },
      floor: ({ fixtures }) => floorSearchContent(fixtures.largeTree, fixtures.needle),
    },
    {
      id: 'write-1k',
      title: 'write 1 KiB',
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
          await writeFile(join(fixtures.scratch, `${tag}-${i}.txt`), content, { flag: 'wx' });
          return NONE;
        },
    },
    {
      id: 'edit-16k',
      title: 'edit 16 KiB',
      kind: 'calls',
      warmup: 2,
      // One after another only: concurrent edits of one file would race by design.
      calls: 50,
      goals: [],
      server: {
        ours: editOp,
        official: editOp,
      },
      floor: async (ctx) => {
        const { path, edit } = await editTarget(ctx);
        return async (i) => {
          const [oldText, newText] = edit(i);
          const text = await readFile(path, 'utf8');
          await writeFile(path, text.replace(oldText, newText));
          return NONE;
        };
      },
    },
  ];
}
