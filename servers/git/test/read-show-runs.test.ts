/**
 * git_show reads a commit and its changes from one `git show` run: the commit's fields come ahead
 * of the patch and are split off it. The commit is there with paths it does not touch too, and a
 * message that quotes a patch is neither taken for the patch nor counted as its files.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { runs } from './git-runs.js';
import { perTest } from './read-kit.js';
import { git } from './repo-kit.js';

vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  const { recording } = await import('./git-runs.js');
  return { ...real, runProcess: recording(real.runProcess) };
});

type Shown = { files?: Array<{ path: string }>; page: number; commit?: { subject: string; body?: string } };

/** A message whose body quotes a patch of two files. */
const QUOTING = ['Quote a patch', 'diff --git a/one b/one\n+x\ndiff --git a/two b/two\n+y'];

describe.each(['legacy', 'modern'] as const)('git_show runs, %s era', (era) => {
  const t = perTest(era);
  let time: MockInstance<() => number> | undefined;
  afterEach(() => {
    time?.mockRestore();
    time = undefined;
  });

  /** Calls git_show and returns its result with the reading git commands it ran (show, log, diff). */
  async function show(
    session: TestSession,
    args: Record<string, unknown>,
    onprogress?: (p: { progress: number; message?: string }) => void,
  ) {
    const earlier = runs.length;
    const result = await session.callTool('git_show', args, onprogress ? { onprogress } : {});
    expect(result.isError, textOf(result)).toBeFalsy();
    const commands = runs
      .slice(earlier)
      .map((r) => r.args.find((a) => ['show', 'log', 'diff'].includes(a)))
      .filter((c) => c !== undefined);
    return { text: textOf(result), shown: result.structuredContent as Shown, commands };
  }

  /** A fixture whose last commit adds `quoted.txt` under the {@link QUOTING} message, and a client. */
  async function quoting() {
    const fx = await t.fixture();
    await writeFile(join(fx.repo, 'quoted.txt'), 'real change\n');
    git(fx.repo, 'add', 'quoted.txt');
    git(fx.repo, 'commit', '-q', '-m', QUOTING[0] as string, '-m', QUOTING[1] as string);
    return { fx, session: await t.connect(fx.app) };
  }

  it('reads the commit and its patch in one git run, paths it does not touch included', async () => {
    const { fx, session } = await quoting();

    const whole = await show(session, { revision: 'HEAD' });
    expect(whole.commands).toEqual(['show']);
    expect(whole.shown.commit).toMatchObject({ subject: 'Quote a patch', body: QUOTING[1] });
    // The quoted patch stays in the message: the changes are the commit's one file.
    expect(whole.shown.files?.map((f) => f.path)).toEqual(['quoted.txt']);
    expect(whole.text).toContain('    diff --git a/one b/one');
    expect(whole.text).toContain('diff --git a/quoted.txt b/quoted.txt\nnew file mode');

    // A path the commit does not touch: the commit is still shown, with no change.
    const elsewhere = await show(session, { revision: 'HEAD', paths: ['README.md'] });
    expect(elsewhere.commands).toEqual(['show']);
    expect(elsewhere.shown).toMatchObject({ files: [], page: 1, commit: { subject: 'Quote a patch' } });
    expect(elsewhere.text).toMatch(
      /^Revision HEAD:\ncommit [0-9a-f]{40}\n[\s\S]*\n\nThe commit changes no file\.$/,
    );

    // A commit that changes nothing at all.
    git(fx.repo, 'commit', '-q', '--allow-empty', '-m', 'nothing');
    const empty = await show(session, { revision: 'HEAD' });
    expect(empty.commands).toEqual(['show']);
    expect(empty.shown).toMatchObject({ files: [], commit: { subject: 'nothing' } });
  });

  it('counts only the patch in the progress, not a patch quoted in the message', async () => {
    const { session } = await quoting();
    // Every report sent: the clock moves past the throttle at each reading.
    let now = Date.now();
    time = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const messages: string[] = [];
    await show(session, { revision: 'HEAD' }, (p) => messages.push(p.message ?? ''));
    time.mockRestore();
    expect(messages.filter((m) => /read$/.test(m))).toEqual(['1 file read']);
  });
});
