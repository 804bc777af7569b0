/**
 * Option injection (SECURITY.md Git 2) against the functions every tool passes client values
 * through: `checkValue`, `resolveCommit`, `checkNewName` and `pathspecs`. Each injected value must
 * be refused with a `UserError`, or (a path that is merely odd) become one `:(literal)` pathspec
 * inside the work tree; and then, passed on to git the hardened way, create no file anywhere and
 * run nothing of the hostile repository.
 */
import { join } from 'node:path';
import { isUserError } from '@mcpkit/core/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Repository } from '../src/git/repository.js';
import { checkNewName, checkValue, pathspecs, resolveCommit } from '../src/git/values.js';
import { type AttackFixture, attackFixture, injectionValues, withoutQuotedInput } from './attack-kit.js';
import { hostileRepo } from './hostile-repo.js';

let fx: AttackFixture;
let repo: Repository;
let before: Map<string, string>;

beforeAll(async () => {
  fx = await attackFixture();
  const hostile = await hostileRepo(join(fx.repos, 'hostile'), fx.markerDir);
  repo = await fx.open(hostile.repo);
  before = await fx.outsideState();
});
afterAll(async () => {
  await fx.cleanup();
});

/** The error `work` ends with, or undefined when it succeeds. */
async function failure(work: () => unknown): Promise<unknown> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Values that must pass `checkValue` as they are: odd but not options (later checks refuse them). */
const PLAIN = new Set(['HEAD --', 'pathspec magic', 'parent path', 'absolute outside']);

/** The values, built for this fixture (the list is the same for every run). */
const values = () => injectionValues(fx.targets);
const LABELS = injectionValues({ tmp: '/t', outside: '/o' }).map(([label]) => label);

describe.each(LABELS)('injected value: %s', (label) => {
  const value = () => values().find(([l]) => l === label)?.[1] ?? '';

  it('checkValue refuses it unless it is plain text', async () => {
    const error = await failure(() => checkValue('ref', value()));
    if (PLAIN.has(label)) expect(error).toBeUndefined();
    else expect(isUserError(error), `${label} must be refused`).toBe(true);
  });

  it('resolveCommit names no commit for it, and runs nothing', async () => {
    const error = await failure(() => resolveCommit(repo, 'target', value()));
    expect(isUserError(error), `${label} must be refused`).toBe(true);
    expect(withoutQuotedInput((error as Error).message)).not.toContain(fx.base);
  });

  it('checkNewName refuses it as a branch or tag name', async () => {
    const error = await failure(() => checkNewName('branch name', value()));
    expect(isUserError(error), `${label} must be refused`).toBe(true);
  });

  it('pathspecs refuses it or makes one literal pathspec inside the work tree, harmless to git', async () => {
    let specs: string[] = [];
    const error = await failure(async () => {
      specs = await pathspecs(repo, fx.roots, [value()]);
    });
    if (error !== undefined) {
      expect(isUserError(error), `${label}: ${String(error)}`).toBe(true);
      return;
    }
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatch(/^:\(literal\)[^-]/);
    expect(specs[0]).not.toMatch(/(^|\/)\.\.(\/|$)/);
    // Passed after `--` it is a path, whatever it looks like.
    const log = await repo.runRaw(['log', '--no-ext-diff', '--no-textconv', '--oneline', '--', ...specs]);
    expect(log.code).toBe(0);
    await repo.runRaw(['add', '--', ...specs]);
  });
});

describe('after every injected value', () => {
  it('has created no file, run no program, and left outside/ as it was', async () => {
    // The same values again straight into git after --end-of-options, as a second line of defence.
    for (const [, value] of values()) {
      if (value.includes('\u0000')) continue; // cannot be an argument at all
      await repo.runRaw(['log', '-n', '1', '--end-of-options', value]);
      await repo.runRaw(['diff', '--no-ext-diff', '--no-textconv', '--end-of-options', value]);
    }
    expect(await fx.createdTargets()).toEqual([]);
    expect(await fx.markers()).toEqual([]);
    expect(await fx.outsideState()).toEqual(before);
  });
});
