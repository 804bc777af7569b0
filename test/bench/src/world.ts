/**
 * The scenarios every server gets from its test world, with nothing here naming it: cold start,
 * tools/list and the world's two read calls, on the world its `setup` builds in a fresh folder
 * under the bench's output folder (closed and removed after the run).
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadCall, TestWorld } from '@mcpkit/core/testing';
import {
  answerText,
  type Fixture,
  type Op,
  type OpResult,
  type Scenario,
  type SealedSuite,
  type SessionContext,
  sealSuite,
} from './scenario.js';
import type { Session, Target } from './session.js';

/**
 * The world as `setup` built it. Its roots are not offered: the bench's client declares no roots
 * capability, so every server uses what its command line names, as with a plain host.
 */
export interface WorldFixture extends Fixture {
  dir: string;
  reads: [ReadCall, ReadCall];
  close?: () => Promise<void>;
}

const NONE: OpResult = { answers: [] };

const listOp =
  (session: Session): Op =>
  async () => {
    await session.listTools();
    return NONE;
  };

/** The world's two reads, alternating; an answer without the text it should contain fails the session. */
const readOp =
  (session: Session, { fixtures }: SessionContext<WorldFixture>): Op =>
  async (i) => {
    const read = fixtures.reads[i % 2]!;
    const result = await session.call(read.tool, read.args);
    const text = answerText(result);
    if (!text.includes(read.expect)) {
      throw new Error(`${read.tool} answered without "${read.expect}": ${text.slice(0, 200)}`);
    }
    return { answers: [result] };
  };

/** The generic suite of one server; cold start and tools/list run for every server target, peers included. */
export function worldSuite(server: string, world: TestWorld, targets: readonly Target[]): SealedSuite {
  const impls = [...new Set(targets.flatMap((t) => (t.kind === 'server' ? [t.impl] : [])))];
  const everyImpl = (op: Scenario<WorldFixture>['server'][string]) =>
    Object.fromEntries(impls.map((impl) => [impl, op]));
  // "official 2026.8.31" → "official", as the report's ratio column names it.
  const peer = targets.find((t) => t.role === 'peer')?.label.split(' ')[0];
  return sealSuite<WorldFixture>({
    id: 'world',
    async setup({ outDir }) {
      const parent = join(outDir, 'worlds');
      await mkdir(parent, { recursive: true });
      // Real path: a server may resolve links in what it is given and compare with the answer.
      const dir = await realpath(await mkdtemp(join(parent, `${server}-`)));
      try {
        const built = await world.setup(dir);
        return { dir, args: built.args, reads: built.reads, ...(built.close ? { close: built.close } : {}) };
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    },
    async teardown(fixture) {
      try {
        await fixture.close?.();
      } finally {
        await rm(fixture.dir, { recursive: true, force: true });
      }
    },
    describe: ({ args, reads }) => ({ args, reads }),
    scenarios: [
      {
        id: 'cold-start',
        title: 'cold start',
        kind: 'coldStart',
        warmup: 0,
        calls: 3,
        goals: peer
          ? [{ metric: 'p50', versus: 'peer', atMost: 1, text: `cold start no slower than ${peer}` }]
          : [],
        server: everyImpl(() => () => Promise.resolve(NONE)),
      },
      {
        id: 'tools-list',
        title: 'tools/list',
        kind: 'calls',
        warmup: 2,
        calls: 30,
        parallel: { inflight: 4, calls: 40 },
        goals: [],
        server: everyImpl(listOp),
      },
      {
        id: 'world-reads',
        title: 'world reads',
        kind: 'calls',
        warmup: 4,
        calls: 100,
        parallel: { inflight: 4, calls: 200 },
        goals: [],
        // The reads are our tools: a peer may name its own differently.
        server: { ours: readOp },
      },
    ],
  });
}
