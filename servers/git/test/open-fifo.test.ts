/**
 * Git reads a repository's configuration, every file it includes, `HEAD` and the index before it
 * answers anything: a FIFO among them made every command wait until its deadline. Each tool must
 * now refuse such a repository at once, in one sentence naming no host path, and serve it again
 * once the FIFO is gone. The tests have no deadline of their own: git's 10 s limit would answer
 * with another sentence, which fails them. Not on Windows (no FIFOs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestSession, textOf } from '@mcpkit/core/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fingerprint } from './attack-kit.js';
import { perTest } from './read-kit.js';

// The home every git process gets, where a `~/` include leads: set before the server's modules load.
const home = await vi.hoisted(() => import('./home-kit.js').then((kit) => kit.useTempHome()));

afterAll(() => rmSync(home, { recursive: true, force: true }));

/** One call of every tool, with arguments that succeed on the fixture. */
const EVERY_TOOL: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['git_status', {}],
  ['git_diff_unstaged', {}],
  ['git_diff_staged', {}],
  ['git_diff', { target: 'HEAD~1' }],
  ['git_log', {}],
  ['git_show', { revision: 'HEAD' }],
  ['git_blame', { path: 'README.md' }],
  ['git_reflog', {}],
  ['git_add', { files: ['README.md'] }],
  ['git_commit', { message: 'Change' }],
  ['git_reset', {}],
  ['git_branch', {}],
  ['git_create_branch', { branch_name: 'topic' }],
  ['git_checkout', { branch_name: 'main' }],
  ['git_stash', { action: 'list' }],
  ['git_tag', {}],
  ['git_worktree_list', {}],
];

const INCLUDED =
  'Git would wait forever on a file the repository\'s configuration includes ("include.path") in this repository, which is a FIFO, socket or device instead of a regular file; remove that include to use the repository.';

const fixed = (what: string) =>
  `Git would wait forever on ${what} in this repository, which is a FIFO, socket or device instead of a regular file; remove it to use the repository.`;

describe.skipIf(process.platform === 'win32').each(['legacy', 'modern'] as const)(
  'no wait on a FIFO git reads first, %s era',
  (era) => {
    const t = perTest(era);
    afterEach(() => rmSync(join(home, 'conf'), { recursive: true, force: true }));

    function fifo(path: string): string {
      execFileSync('mkfifo', [path]);
      return path;
    }

    /** Every tool answers `sentence`, with no host path in it. */
    async function allRefuse(session: TestSession, sentence: string, base: string): Promise<void> {
      for (const [tool, args] of EVERY_TOOL) {
        const result = await session.callTool(tool, args);
        expect(result.isError, `${tool}: ${textOf(result)}`).toBe(true);
        expect(textOf(result), tool).toBe(sentence);
        expect(textOf(result)).not.toContain(base);
      }
    }

    /** The repository is served again: a read answers its result. */
    async function served(session: TestSession): Promise<void> {
      const result = await session.callTool('git_log', {});
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toContain('commit');
    }

    it('refuses an include of a FIFO, in every form git follows, and serves the repository once it is gone', async () => {
      const fx = await t.fixture();
      const session = await t.connect(fx.app);
      const config = join(fx.repo, '.git', 'config');
      const plain = join(fx.outside, 'plain.conf');
      await writeFile(plain, `[include]\n\tpath = ${fifo(join(fx.outside, 'deep'))}\n`);
      mkdirSync(join(home, 'conf'), { recursive: true });
      fifo(join(home, 'conf', 'fifo'));
      fifo(join(fx.repo, '.git', 'beside'));
      const forms = [
        `[include]\n\tpath = ${fifo(join(fx.outside, 'abs'))}\n`, // absolute
        '[include]\n\tpath = beside\n', // beside the configuration file
        '[include]\n\tpath = ~/conf/fifo\n', // in the home git is given
        `[include]\n\tpath = ${plain}\n`, // an include's own include
        `[includeIf "gitdir:/nowhere/"]\n\tpath = ${join(fx.outside, 'abs')}\n`, // whatever the condition
        `[INCLUDE]\n\tPath = ${join(fx.outside, 'abs')}\n`, // any case
      ];
      const original = await readFile(config, 'utf8');
      const untouched = await fingerprint(fx.base);
      for (const form of forms) {
        await appendFile(config, form);
        await allRefuse(session, INCLUDED, fx.base);
        await writeFile(config, original);
        // Refused before git ran: the writers among the tools changed nothing, here or outside.
        expect(await fingerprint(fx.base)).toEqual(untouched);
        await served(session);
      }
    });

    it("refuses an include of a FIFO in a submodule's configuration", async () => {
      const fx = await t.fixture();
      const session = await t.connect(fx.app);
      const module = join(fx.repo, '.git', 'modules', 'lib');
      mkdirSync(module, { recursive: true });
      await writeFile(join(module, 'config'), `[include]\n\tpath = ${fifo(join(fx.outside, 'sub'))}\n`);
      const untouched = await fingerprint(fx.base);
      const result = await session.callTool('git_status', {});
      expect(textOf(result)).toBe(INCLUDED);
      expect(await fingerprint(fx.base)).toEqual(untouched);
      rmSync(join(module, 'config'));
      await served(session);
    });

    it("refuses a FIFO in place of the git directory's own files, also after a call was served", async () => {
      const fx = await t.fixture();
      const session = await t.connect(fx.app);
      await served(session); // what the server learned of the repository is kept from here on
      // A new entry in .git makes the server look at the repository again; one in .git/info does not.
      for (const name of ['HEAD', 'config', 'index', 'info/attributes']) {
        const path = join(fx.repo, '.git', name);
        const kept = `${path}.kept`;
        const had = existsSync(path);
        if (had) renameSync(path, kept);
        fifo(path);
        const untouched = await fingerprint(fx.base);
        const result = await session.callTool('git_status', {});
        expect(textOf(result), name).toBe(fixed(`".git/${name}"`));
        expect(await fingerprint(fx.base)).toEqual(untouched);
        rmSync(path);
        if (had) renameSync(kept, path);
        await served(session);
      }
    });
  },
);
