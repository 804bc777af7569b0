/**
 * Paging through a diff tool in the tests: every page from the first to the last, and the clock
 * moved past the time the first page's output is kept, so the next page runs git again.
 */
import type { TestSession } from '@mcpkit/core/testing';
import { textOf } from '@mcpkit/core/testing';
import { expect, vi } from 'vitest';
import { KEEP_MS } from '../src/git/diff-runs.js';

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
