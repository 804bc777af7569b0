/**
 * Paging through a diff tool in the tests: every page from the first to the last, the clock moved
 * past the time the first page's output is kept (so the next page runs git again), and a merge
 * conflict, whose diff git prints ahead of the other files.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestSession, textOf } from '@mcpkit/core/testing';
import { expect, vi } from 'vitest';
import { KEEP_MS } from '../src/git/diff-runs.js';
import { git } from './repo-kit.js';

/**
 * The diff lines of every page of `tool` with `args`, from the first page to the last, checking
 * that each page is numbered, names its cursor, and that only the first lists the files.
 */
export async function allPages(
  session: TestSession,
  tool: string,
  args: Record<string, unknown>,
  beforeEach?: () => void,
): Promise<{ diff: string; pages: string[] }> {
  const pages: string[] = [];
  const parts: string[] = [];
  let cursor: string | undefined;
  do {
    beforeEach?.();
    const result = await session.callTool(tool, { ...args, ...(cursor ? { cursor } : {}) });
    expect(result.isError, textOf(result)).toBeFalsy();
    const text = textOf(result);
    pages.push(text);
    const structured = result.structuredContent as { page: number; nextCursor?: string; files?: unknown[] };
    expect(structured.page).toBe(pages.length);
    expect(structured.files !== undefined).toBe(pages.length === 1);
    if (structured.nextCursor) expect(text).toContain(`cursor "${structured.nextCursor}"`);
    // The first page opens with the title, the commit (git_show) and the overview.
    const body = pages.length === 1 ? text.slice(text.indexOf('\ndiff --') + 1) : text;
    const lines = body.split('\n').slice(pages.length === 1 ? 0 : 1);
    parts.push(lines.filter((l) => !l.startsWith('[')).join('\n'));
    cursor = structured.nextCursor;
  } while (cursor && pages.length < 500);
  return { diff: parts.join('\n'), pages };
}

/** Moves the clock past the time a diff's output is kept: the next page runs git again. */
export function forgetKeptOutput(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + KEEP_MS + 1000);
}

/**
 * Leaves the repository at `repo` in a merge that conflicts on `m.txt` (150 lines, each side its
 * own), with `a.txt` and `z.txt` changed in the work tree around it. `line` writes line `i` of a
 * side named `tag`.
 */
export async function mergeConflict(repo: string, line: (tag: string, i: number) => string): Promise<void> {
  const rows = (tag: string) => Array.from({ length: 150 }, (_, i) => line(tag, i)).join('');
  for (const name of ['a.txt', 'm.txt', 'z.txt']) await writeFile(join(repo, name), rows('base'));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  git(repo, 'checkout', '-q', '-b', 'other');
  await writeFile(join(repo, 'm.txt'), rows('other'));
  git(repo, 'commit', '-q', '-am', 'other');
  git(repo, 'checkout', '-q', 'main');
  await writeFile(join(repo, 'm.txt'), rows('main'));
  git(repo, 'commit', '-q', '-am', 'main');
  expect(() => git(repo, 'merge', '-q', 'other')).toThrow();
  for (const name of ['a.txt', 'z.txt']) await writeFile(join(repo, name), rows(name));
}
