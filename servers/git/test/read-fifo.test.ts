/**
 * A FIFO where git opens a file by name makes it wait for a writer that never comes. A hostile
 * repository can name one in its configuration (attributes, ignore rules, blame's list of
 * revisions, the mailmap, hooks, a commit template, signers) or hold one among its own files.
 * Each call here must answer, with its result or one sentence, instead of waiting: the tests have
 * no deadline of their own, a call that waits fails the test's timeout. Not on Windows (no FIFOs).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { type TestSession, textOf } from '@mcpkit/core/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fingerprint } from './attack-kit.js';
import { perTest } from './read-kit.js';
import { git } from './repo-kit.js';

// The user's home, where git finds their own ignore and attributes files: set before the server's
// modules load, since the hardening reads it once.
const home = await vi.hoisted(() => import('./home-kit.js').then((kit) => kit.useTempHome()));

afterAll(() => rmSync(home, { recursive: true, force: true }));

type Call = [tool: string, args: Record<string, unknown>];

describe.skipIf(process.platform === 'win32').each(['legacy', 'modern'] as const)(
  'no wait on a FIFO, %s era',
  (era) => {
    const t = perTest(era);
    // The user's own files one test writes: gone before the next test, even when that one failed.
    afterEach(() => rm(join(home, '.config'), { recursive: true, force: true }));

    /** A FIFO named `name` in `dir` (outside the allowed directories), nobody writing to it. */
    function fifo(dir: string, name: string): string {
      const path = join(dir, name);
      execFileSync('mkfifo', [path]);
      return path;
    }

    /** Calls each tool and expects its result, not an error. */
    async function answered(session: TestSession, calls: readonly Call[]): Promise<void> {
      for (const [tool, args] of calls) {
        const result = await session.callTool(tool, args);
        expect(result.isError, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`).toBeFalsy();
      }
    }

    it("waits on no attributes or ignore file the repository names, and still reads the user's own", async () => {
      const fx = await t.fixture();
      git(fx.repo, 'config', 'core.attributesFile', fifo(fx.outside, 'attributes'));
      git(fx.repo, 'config', 'core.excludesFile', fifo(fx.outside, 'ignore'));
      mkdirSync(join(home, '.config', 'git'), { recursive: true });
      await writeFile(join(home, '.config', 'git', 'ignore'), '*.log\n');
      await writeFile(join(fx.repo, 'debug.log'), 'noise\n');
      await writeFile(join(fx.repo, 'notes.txt'), 'kept\n');
      await writeFile(join(fx.repo, 'README.md'), '# App, changed\n');
      // Nothing outside the allowed directories is changed, the FIFOs there included.
      const outside = await fingerprint(fx.outside);
      const session = await t.connect(fx.app);
      await answered(session, [
        ['git_status', {}],
        ['git_diff_unstaged', {}],
        ['git_diff_staged', {}],
        ['git_show', { revision: 'HEAD' }],
        ['git_log', { path: 'README.md' }],
        ['git_blame', { path: 'README.md' }],
        ['git_add', { files: ['notes.txt'] }],
      ]);
      expect(await fingerprint(fx.outside)).toEqual(outside);
      // The user's own ignore file still counts: the log file is not listed, the notes were staged.
      const status = textOf(await session.callTool('git_status', {}));
      expect(status).toContain('notes.txt');
      expect(status).not.toContain('debug.log');
      // The fixture's own git is not hardened: the FIFOs go before it looks.
      git(fx.repo, 'config', '--unset', 'core.attributesFile');
      git(fx.repo, 'config', '--unset', 'core.excludesFile');
      expect(git(fx.repo, 'diff', '--cached', '--name-only').trim()).toBe('notes.txt');
    });

    it('waits on no other file the configuration names: revisions to skip, mailmap, hooks, template, signers', async () => {
      const fx = await t.fixture();
      git(fx.repo, 'config', 'blame.ignoreRevsFile', fifo(fx.outside, 'revs'));
      git(fx.repo, 'config', 'mailmap.file', fifo(fx.outside, 'mailmap'));
      git(fx.repo, 'config', 'core.hooksPath', fifo(fx.outside, 'hooks'));
      git(fx.repo, 'config', 'commit.template', fifo(fx.outside, 'template'));
      git(fx.repo, 'config', 'gpg.ssh.allowedSignersFile', fifo(fx.outside, 'signers'));
      git(fx.repo, 'config', 'log.showSignature', 'true');
      await writeFile(join(fx.repo, 'README.md'), '# App, changed\n');
      git(fx.repo, 'add', 'README.md');
      // Nothing outside the allowed directories is changed, the FIFOs there included.
      const outside = await fingerprint(fx.outside);
      const session = await t.connect(fx.app);
      await answered(session, [
        ['git_blame', { path: 'README.md' }],
        ['git_blame', { path: 'README.md', ref: 'HEAD' }],
        ['git_log', {}],
        ['git_show', { revision: 'HEAD' }],
        ['git_commit', { message: 'Change the title' }],
      ]);
      expect(await fingerprint(fx.outside)).toEqual(outside);
      git(fx.repo, 'config', '--unset', 'mailmap.file');
      expect(git(fx.repo, 'log', '-1', '--format=%s').trim()).toBe('Change the title');
    });

    it('refuses to blame, in one sentence, where git would wait on a file of the repository', async () => {
      const fx = await t.fixture();
      // Nothing outside the allowed directories is changed, the FIFOs there included.
      const outside = await fingerprint(fx.outside);
      const session = await t.connect(fx.app);
      const gitDir = join(fx.repo, '.git');
      const cases: Array<[make: () => void, path: string]> = [
        [() => execFileSync('mkfifo', [join(fx.repo, '.mailmap')]), join(fx.repo, '.mailmap')],
        [
          () => execFileSync('mkfifo', [join(fx.repo, 'docs', '.gitattributes')]),
          join(fx.repo, 'docs', '.gitattributes'),
        ],
        [() => execFileSync('mkfifo', [join(gitDir, 'MERGE_HEAD')]), join(gitDir, 'MERGE_HEAD')],
        [
          () => execFileSync('mkfifo', [join(gitDir, 'info', 'attributes')]),
          join(gitDir, 'info', 'attributes'),
        ],
        // A device through a link: git follows links in its own directory, and /dev/zero never ends.
        [
          () => symlinkSync('/dev/zero', join(gitDir, 'info', 'attributes')),
          join(gitDir, 'info', 'attributes'),
        ],
      ];
      for (const [make, path] of cases) {
        rmSync(path, { force: true });
        make();
        for (const ref of [undefined, 'HEAD']) {
          const result = await session.callTool('git_blame', {
            path: 'docs/guide.md',
            ...(ref ? { ref } : {}),
          });
          expect(result.isError, `${path}: ${textOf(result)}`).toBe(true);
          const shown = relative(fx.repo, path).split(sep).join('/');
          expect(textOf(result)).toBe(
            `Git would wait forever on "${shown}" in this repository, which is a FIFO, socket or device instead of a regular file; remove it to use the repository.`,
          );
          expect(textOf(result)).not.toContain(fx.base);
        }
        rmSync(path, { force: true });
      }
      expect(await fingerprint(fx.outside)).toEqual(outside);
      // A link named like a work tree file is no danger: git does not follow it there.
      symlinkSync(fifo(fx.outside, 'linked'), join(fx.repo, '.mailmap'));
      await answered(session, [['git_blame', { path: 'docs/guide.md' }]]);
    });
  },
);
