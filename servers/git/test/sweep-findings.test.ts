/**
 * What the odd-input sweep (sweep-odd-inputs.test.ts) found, each pinned to the answer it gets
 * now, in both eras: a name quoted in a message carries no bidi control and is cut short, and a
 * repository without a commit yet gets a sentence (or an empty reflog) from git_reflog, git_blame
 * and git_stash instead of git's bare "bad revision" or an exit code.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRepos, type GitSweepWorld, gitSweepApp, restoreRepos } from './sweep-world.js';

// Right-to-left override: quoted raw, it makes the rest of the message read backwards.
const RLO = '\u202e';

describe.each(['legacy', 'modern'] as const)('sentences the sweep found missing, %s era', (era) => {
  let w: GitSweepWorld;
  let app: App;
  let session: TestSession;

  beforeAll(async () => {
    w = await buildRepos(await mkdtemp(join(tmpdir(), 'mcpkit-git-found-')));
    app = await gitSweepApp(w);
    session = await connect(app, { era });
  });
  afterAll(async () => {
    await session.close();
    await app.close();
    await rm(w.base, { recursive: true, force: true });
  });

  it('quotes a name without its bidi controls, wherever a message names it', async () => {
    const said = [
      textOf(await session.callTool('git_status', { repo_path: `${RLO}gnp.txt` })),
      textOf(await session.callTool('git_log', { ref: `${RLO}gnp` })),
      textOf(await session.callTool('git_blame', { path: `${RLO}gnp.txt` })),
      textOf(await session.callTool('git_checkout', { branch_name: `${RLO}gnp` })),
    ];
    expect(said[0]).toBe('"?gnp.txt" is not a directory; give the folder of a git repository.');
    expect(said[1]).toBe(
      'No commit is named "?gnp" in this repository; give a branch, a tag or a commit hash.',
    );
    // Git's own reason quotes the path as it came: it is cleaned too.
    expect(said[2]).toBe("git blame failed: no such path '?gnp.txt' in HEAD.");
    expect(said[3]).toMatch(/^There is no local branch "\?gnp"/);
    for (const text of said) expect(text).not.toContain(RLO);
  });

  it('cuts a long name it quotes', async () => {
    const folder = textOf(await session.callTool('git_status', { repo_path: `${'x/'.repeat(500)}x` }));
    expect(folder).toMatch(/^"(x\/){38}x\.\.\." is not a directory; give the folder of a git repository\.$/);
    const named = await session.client
      .readResource({ uri: `git://${'y'.repeat(5000)}/status` })
      .catch(String);
    expect(named).toMatch(/No repository is named "y{77}\.\.\." here; list the resources to see the names\./);
  });

  it('shows an empty reflog for a repository without a commit, and says why blame has nothing', async () => {
    const reflog = await session.callTool('git_reflog', { repo_path: 'empty' });
    expect(reflog.isError).toBeFalsy();
    expect(textOf(reflog)).toBe('HEAD has no reflog entries.');
    expect(reflog.structuredContent).toEqual({ ref: 'HEAD', entries: [] });
    await writeFile(join(w.repos, 'empty', 'a.txt'), 'a\n');
    const blame = await session.callTool('git_blame', { repo_path: 'empty', path: 'a.txt' });
    expect(textOf(blame)).toBe(
      'The repository has no commit yet, so there is no history to blame; commit first.',
    );
    const stash = await session.callTool('git_stash', {
      repo_path: 'empty',
      action: 'push',
      include_untracked: true,
    });
    expect(textOf(stash)).toBe(
      'The repository has no commit yet, so there is nothing to stash against; commit first.',
    );
    await restoreRepos(w);
  });

  it('still reads the reflog of a branch that has none as a refusal, not as empty', async () => {
    const missing = await session.callTool('git_reflog', { repo_path: 'empty', ref: 'main' });
    expect(textOf(missing)).toBe('"main" is not a branch or ref with a reflog; give HEAD or a branch name.');
  });
});
