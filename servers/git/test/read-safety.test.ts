import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError } from '@mcpkit/core/progress';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectGitKilledOnCancel } from './e2e-cancel.js';
import { makeSlowHistory, SLOW_FILE } from './e2e-history.js';
import { expectExited, lastRun } from './git-runs.js';
import { type ReadFixture, readFixture } from './read-kit.js';
import { git } from './repo-kit.js';

// Every git that streams or must die with its call runs through runProcess; recording each run
// (the real one still runs) shows whether a cancelled git was stopped, and that its process is gone.
vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  const { recording } = await import('./git-runs.js');
  return { ...real, runProcess: recording(real.runProcess) };
});

/** Every string field of every read tool, with the arguments that make the rest of the call valid. */
const FIELDS: Array<[tool: string, field: string, base: Record<string, unknown>]> = [
  ['git_diff_unstaged', 'repo_path', {}],
  ['git_diff_unstaged', 'paths', {}],
  ['git_diff_unstaged', 'cursor', {}],
  ['git_diff_staged', 'paths', {}],
  ['git_diff_staged', 'cursor', {}],
  ['git_diff', 'target', {}],
  ['git_diff', 'paths', { target: 'HEAD' }],
  ['git_diff', 'cursor', { target: 'HEAD' }],
  ['git_show', 'revision', {}],
  ['git_show', 'paths', { revision: 'HEAD' }],
  ['git_show', 'cursor', { revision: 'HEAD' }],
  ['git_log', 'repo_path', {}],
  ['git_log', 'ref', {}],
  ['git_log', 'path', {}],
  ['git_log', 'start_timestamp', {}],
  ['git_log', 'end_timestamp', {}],
  ['git_log', 'cursor', {}],
  ['git_blame', 'path', {}],
  ['git_blame', 'ref', { path: 'README.md' }],
  ['git_reflog', 'ref', {}],
  ['git_reflog', 'cursor', {}],
];

describe.each(['legacy', 'modern'] as const)('read tools under attack, %s era', (era) => {
  let fx: ReadFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('refuses option-like values in every string field, and no file appears', async () => {
    fx = await readFixture();
    const marker = join(fx.base, 'pwned');
    const values = [
      `--output=${marker}`,
      '-c',
      `--upload-pack=touch ${marker}`,
      `--exec=touch ${marker}`,
      '--no-index',
      'HEAD\u0000--output=x',
      'HEAD --',
    ];
    session = await connect(fx.app, { era });
    for (const [tool, field, base] of FIELDS) {
      for (const value of values) {
        // A file may well be called "HEAD --": as a path it is a name, passed after `--` as a literal.
        if (value === 'HEAD --' && field.startsWith('path')) continue;
        const args = { ...base, [field]: field === 'paths' ? [value] : value };
        const result = await session.callTool(tool, args);
        expect(result.isError, `${tool} ${field}=${JSON.stringify(value)}: ${textOf(result)}`).toBe(true);
        expect(existsSync(marker), `${tool} ${field}`).toBe(false);
      }
    }
  });

  it('runs no textconv, external diff or filter a hostile repository declares', async () => {
    fx = await readFixture();
    const marker = join(fx.base, 'ran');
    await writeFile(join(fx.repo, '.gitattributes'), '*.txt diff=evil filter=evil\n');
    await writeFile(join(fx.repo, 'a.txt'), 'one\n');
    git(fx.repo, 'add', '-A');
    git(fx.repo, 'commit', '-q', '-m', 'attributes');
    git(fx.repo, 'config', 'diff.evil.textconv', `touch ${marker}; cat`);
    git(fx.repo, 'config', 'diff.evil.command', `touch ${marker}; true`);
    git(fx.repo, 'config', 'diff.external', `touch ${marker}; true`);
    git(fx.repo, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    git(fx.repo, 'config', 'filter.evil.smudge', `touch ${marker}; cat`);
    await writeFile(join(fx.repo, 'a.txt'), 'two\n');
    session = await connect(fx.app, { era });
    const calls: Array<[string, Record<string, unknown>]> = [
      ['git_diff_unstaged', {}],
      ['git_diff_staged', {}],
      ['git_diff', { target: 'HEAD~1' }],
      ['git_show', { revision: 'HEAD' }],
      ['git_log', { path: 'a.txt' }],
      ['git_blame', { path: 'a.txt' }],
      ['git_blame', { path: 'a.txt', ref: 'HEAD' }],
      ['git_reflog', {}],
    ];
    for (const [tool, args] of calls) {
      const result = await session.callTool(tool, args);
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
      expect(existsSync(marker), tool).toBe(false);
    }
    const diff = await session.callTool('git_diff_unstaged', {});
    expect(textOf(diff)).toContain('-one\n+two');
  });

  // No deadline of its own: a git that waits on the FIFO fails the test's timeout.
  it.skipIf(process.platform === 'win32')(
    'waits on no file the configuration names for the order of a diff (a FIFO would hang git)',
    async () => {
      fx = await readFixture();
      const fifo = join(fx.outside, 'order');
      execFileSync('mkfifo', [fifo]);
      git(fx.repo, 'config', 'diff.orderFile', fifo);
      await writeFile(join(fx.repo, 'README.md'), '# App, changed\n');
      session = await connect(fx.app, { era });
      const calls: Array<[string, Record<string, unknown>]> = [
        ['git_status', {}],
        ['git_diff_unstaged', {}],
        ['git_show', { revision: 'HEAD' }],
        ['git_blame', { path: 'README.md' }],
      ];
      for (const [tool, args] of calls) {
        const result = await session.callTool(tool, args);
        expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
      }
    },
  );

  it("reads no file the configuration names for blame (its first line would show in git's error)", async () => {
    fx = await readFixture();
    git(fx.repo, 'config', 'blame.ignoreRevsFile', join(fx.outside, 'secret.txt'));
    session = await connect(fx.app, { era });
    const result = await session.callTool('git_blame', { path: 'README.md' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).not.toContain('top secret');
  });

  it('explains failures without naming host paths', async () => {
    fx = await readFixture();
    git(fx.outside, 'init', '-q');
    session = await connect(fx.app, { era });
    const calls: Array<[string, Record<string, unknown>]> = [
      ['git_diff', { target: 'HEAD~99' }],
      ['git_show', { revision: 'deadbeef' }],
      ['git_log', { ref: 'nope' }],
      ['git_log', { repo_path: '../outside' }],
      ['git_diff_unstaged', { paths: ['../../outside/secret.txt'] }],
      ['git_blame', { path: 'docs' }],
      ['git_blame', { path: 'README.md', ref: 'HEAD~2', start_line: 9 }],
      ['git_reflog', { ref: 'refs/heads/none' }],
    ];
    for (const [tool, args] of calls) {
      const result = await session.callTool(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).not.toContain(fx.base);
      expect(textOf(result)).not.toContain('internal error');
    }
  });

  // The waits have no deadline of their own: a git that stays fails this generous timeout.
  it('kills git when the call is cancelled, and leaves no process behind', async () => {
    fx = await readFixture();
    const slow = await makeSlowHistory(join(fx.base, 'repos', 'slow'), { commits: 600, lines: 4000 });
    session = await connect(fx.app, { era });
    // git seen running, the call cancelled, and no git left for the repository.
    const blame = { repo_path: slow, path: SLOW_FILE };
    await expectGitKilledOnCancel(session, join(slow, '.git'), 'git_blame', blame);
    // Stopped by the cancel: a blame left to run would have finished (it takes seconds, not minutes).
    const blameRun = lastRun('blame');
    expect(await blameRun.ended).toBeInstanceOf(CancelledError);
    // The very process the server started for it is gone, not only some process matching the repository.
    await expectExited(blameRun);
    // The server takes new work at once.
    expect(textOf(await session.callTool('git_log', { max_count: 1 }))).toContain('commit 3');
  }, 60_000);
});
