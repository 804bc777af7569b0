/**
 * Every git subcommand the tools use, run the hardened way (`Repository.run` and `repo.simple()`
 * from `openRepository`) on the hostile repository: no marker may appear, whichever command it is.
 * The control test runs the same commands with plain git and sees the markers, so the corpus
 * proves something. Known gaps of the hardening are kept as `it.fails`: each turns red when fixed,
 * and is then made an ordinary test.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitError } from '../src/git/errors.js';
import { DIFF_SAFETY } from '../src/git/hardening.js';
import { openRepository } from '../src/git/open-repository.js';
import type { Repository } from '../src/git/repository.js';
import { type AttackFixture, attackFixture } from './attack-kit.js';
import { submoduleWithFilter } from './attack-layouts.js';
import { type HostileOptions, hostileRepo, type Placement } from './hostile-repo.js';
import { git } from './make-repo.js';

type Step = readonly [label: string, run: (repo: Repository, dir: string) => Promise<number | null>];

const raw = (args: string[]) => async (repo: Repository) => (await repo.runRaw(args)).code;
const simple = (work: (repo: Repository) => Promise<unknown>) => async (repo: Repository) => {
  await work(repo);
  return 0;
};

/** The commands of the tools, in an order that leaves each one something to do. */
const STEPS: readonly Step[] = [
  ['status', raw(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'])],
  ['diff', raw(['diff', ...DIFF_SAFETY])],
  ['diff --cached', raw(['diff', ...DIFF_SAFETY, '--cached'])],
  ['log -p', raw(['log', ...DIFF_SAFETY, '-p', '-n', '5'])],
  ['log (signed commit)', raw(['log', '-n', '3'])],
  ['show HEAD', raw(['show', ...DIFF_SAFETY, 'HEAD'])],
  ['show signed tag', raw(['show', ...DIFF_SAFETY, 'v1-signed'])],
  ['blame', raw(['blame', '--no-textconv', '--no-ignore-revs-file', '--porcelain', '--', 'notes.txt'])],
  ['reflog', raw(['reflog', '-n', '5'])],
  ['for-each-ref', raw(['for-each-ref', '--format=%(refname) %(objectname)'])],
  ['worktree list', raw(['worktree', 'list', '--porcelain'])],
  ['rev-parse', raw(['rev-parse', '--verify', '--end-of-options', 'HEAD^{commit}'])],
  ['ls-tree', raw(['ls-tree', '-r', 'HEAD'])],
  ['cat-file blob', raw(['cat-file', '-p', 'HEAD:notes.txt'])],
  ['cat-file tag', raw(['cat-file', '-p', 'v1-signed'])],
  ['add', simple((r) => r.simple().add(['--', 'notes.txt', 'data.dat', 'untracked.txt']))],
  ['commit', simple((r) => r.simple().commit('hostile commit'))],
  ['commit --amend', raw(['commit', '--amend', '-m', 'amended'])],
  ['branch', simple((r) => r.simple().raw(['branch', 'x2']))],
  ['tag -a', simple((r) => r.simple().addAnnotatedTag('t2', 'annotated'))],
  ['checkout', simple((r) => r.simple().checkout('feature'))],
  ['switch -c', simple((r) => r.simple().checkoutLocalBranch('topic'))],
  ['switch', simple((r) => r.simple().raw(['switch', 'main']))],
  [
    'stash push',
    async (repo, dir) => {
      await writeFile(join(dir, 'notes.txt'), 'stashed change\n');
      await repo.simple().stash(['push', '-m', 'wip']);
      return 0;
    },
  ],
  ['stash pop', simple((r) => r.simple().stash(['pop']))],
  ['reset --hard', simple((r) => r.simple().reset(['--hard', 'HEAD~1']))],
  ['merge (merge driver)', raw(['merge', '--no-edit', 'feature'])],
  ['gc --auto', raw(['gc', '--auto'])],
];

/** Transport commands no tool runs: they must fail (protocol.allow=never) without running anything. */
const TRANSPORT: readonly Step[] = [
  ['ls-remote origin (uploadpack)', raw(['ls-remote', 'origin'])],
  ['fetch origin', raw(['fetch', 'origin'])],
  ['ls-remote ext::', raw(['ls-remote', 'ext'])],
  ['fetch ssh (sshCommand)', raw(['fetch', 'ssh'])],
];

/** Runs the steps, recording what each left in the marker folder (cleared between steps). */
async function runSteps(fx: AttackFixture, repo: Repository, steps: readonly Step[]) {
  const seen: Record<string, string[]> = {};
  const codes: Record<string, number | null> = {};
  for (const [label, run] of steps) {
    codes[label] = await run(repo, repo.top);
    const markers = await fx.markers();
    if (markers.length > 0) seen[label] = markers;
    await Promise.all(markers.map((m) => rm(join(fx.markerDir, m))));
  }
  return { seen, codes };
}

let fx: AttackFixture;
beforeEach(async () => {
  fx = await attackFixture();
});
afterEach(async () => {
  expect(await fx.createdTargets()).toEqual([]);
  await fx.cleanup();
});

describe.each(['config', 'include'] as Placement[])('hostile repository, keys in %s', (placement) => {
  it('runs no program of the repository on any command the tools use', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir, { placement });
    const before = await fx.outsideState();
    const repo = await fx.open(hostile.repo);
    const { seen, codes } = await runSteps(fx, repo, STEPS);
    expect(seen).toEqual({});
    // The commands really ran (a refused command would prove nothing).
    for (const label of ['status', 'diff', 'log -p', 'blame', 'commit', 'checkout', 'tag -a', 'stash pop']) {
      expect(codes[label], label).toBe(0);
    }
    expect(await fx.outsideState()).toEqual(before);
  });

  it('lets no transport run: uploadpack, ext::, sshCommand stay unused', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir, { placement });
    const repo = await fx.open(hostile.repo);
    const { seen, codes } = await runSteps(fx, repo, TRANSPORT);
    expect(seen).toEqual({});
    for (const code of Object.values(codes)) expect(code).not.toBe(0);
  });

  it('CONTROL: plain git on the same repository runs its programs', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir, { placement });
    const plain = (...args: string[]) => {
      try {
        git(hostile.repo, ...args);
      } catch {
        // A failing program often makes git fail: the marker is what counts.
      }
    };
    for (const args of [['status'], ['diff'], ['log', '-p', '-n', '3'], ['blame', 'notes.txt']])
      plain(...args);
    plain('diff', '--cached');
    plain('-c', 'filter.evilproc.process=', 'commit', '-m', 'plain'); // reach the hooks
    plain('branch', 'plain');
    plain('ls-remote', 'origin');
    plain('ls-remote', 'ext');
    plain('st');
    const markers = await hostile.markers();
    for (const expected of [
      'fsmonitor',
      'filter-clean',
      'textconv',
      'diff-external',
      'gpg-openpgp-program',
      'hookspath-pre-commit',
      'hookspath-reference-transaction',
      'uploadpack',
      'ext-transport',
      'alias-st',
    ]) {
      expect(markers, expected).toContain(expected);
    }
  });
});

describe('filter drivers that only apply later', () => {
  it('neutralises a filter that an includeIf "onbranch:" adds after a checkout', async () => {
    const extra: HostileOptions['extra'] = [['includeIf.onbranch:feature.path', 'late.inc']];
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir, { extra });
    const late = `[filter "late"]\n\tclean = ${hostile.gitDir}/hostile-bin/filter-clean\n\tsmudge = ${hostile.gitDir}/hostile-bin/filter-smudge\n`;
    await writeFile(join(hostile.gitDir, 'late.inc'), late);
    await writeFile(join(hostile.gitDir, 'info', 'attributes'), '*.txt filter=late\n*.md filter=late\n');
    const cache = fx.cache(); // one cache, as the server keeps: a config with includes is re-read each time
    const open = () => openRepository(hostile.repo, fx.roots, cache);
    await (await open()).run(['checkout', '-q', '-f', 'feature']);
    await writeFile(join(hostile.repo, 'feature.txt'), 'changed!!!!!\n');
    const after = await open();
    await after.run(['status', '--porcelain=v2']);
    await after.run(['diff', ...DIFF_SAFETY]);
    await after.run(['add', '--', 'feature.txt']);
    expect(await hostile.markers()).toEqual([]);
    // Control: plain git on that branch does run the late filter (info/attributes sends *.txt to it).
    await writeFile(join(hostile.repo, 'feature.txt'), 'changed again\n');
    git(hostile.repo, '-c', 'filter.evilproc.process=', 'add', '--', 'feature.txt');
    expect(await hostile.markers()).toContain('filter-clean');
  });
});

describe('gaps this corpus found in the hardening, closed', () => {
  const commands = async (repo: Repository) => {
    await repo.runRaw(['status', '--porcelain=v2']);
    await repo.runRaw(['diff', ...DIFF_SAFETY]);
    await repo.runRaw(['add', '--', '.']);
  };

  // `-c filter.x=y.clean=` is read by git as key `filter.x`, value `y.clean=`: such a driver cannot
  // be emptied, so the repository is refused before any command runs.
  it('a filter driver named "x=y" makes the repository refused, and nothing runs', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir, { filterName: 'x=y' });
    await expect(fx.open(hostile.repo)).rejects.toThrow(/holds "="/);
    expect(await hostile.markers()).toEqual([]);
  });

  // `git config --local --list` does not read `.git/config.worktree` (extensions.worktreeConfig).
  it('keys in .git/config.worktree are seen: filters neutralised', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir, {
      placement: 'worktree-config',
    });
    await commands(await fx.open(hostile.repo));
    expect(await hostile.markers()).toEqual([]);
  });

  // A submodule's configuration (.git/modules/sub/config) names its own filter; status, diff and
  // add recurse into the submodule and run it. -c propagates, but the driver name is never listed.
  it("a submodule's own filter driver is neutralised", async () => {
    const repo = await submoduleWithFilter(join(fx.repos, 'parent'), join(fx.base, 'source'), fx.markerDir);
    await commands(await fx.open(repo));
    expect(await fx.markers()).toEqual([]);
  });
});

describe('blame.ignoreRevsFile: why git_blame passes --no-ignore-revs-file', () => {
  it('the hardened arguments alone still let blame read it and quote its first line', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir);
    git(hostile.repo, 'config', 'blame.ignoreRevsFile', join(fx.outside, 'secret.txt'));
    const repo = await fx.open(hostile.repo);
    const error = await repo
      .run(['blame', '--no-textconv', '--porcelain', '--', 'notes.txt'])
      .catch((e) => e);
    // If this turns red, the hardening itself now covers the key: good, drop this test.
    expect(gitError('Blame', error).message).toContain('top secret');
  });

  it('blame --no-ignore-revs-file ignores the configured file', async () => {
    const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir);
    git(hostile.repo, 'config', 'blame.ignoreRevsFile', join(fx.outside, 'secret.txt'));
    const repo = await fx.open(hostile.repo);
    const out = await repo.run(['blame', '--no-textconv', '--no-ignore-revs-file', '--', 'notes.txt']);
    expect(out.stdout).not.toContain('top secret');
    expect(await hostile.markers()).toEqual([]);
  });
});
