import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { copyFile } from '../src/tools/copy-file.js';
import { createDirectory } from '../src/tools/create-directory.js';
import { deleteFile } from '../src/tools/delete-file.js';
import { getFileInfo } from '../src/tools/get-file-info.js';
import { listAllowedDirectories } from '../src/tools/list-allowed-directories.js';
import { moveFile } from '../src/tools/move-file.js';
import { readFile } from '../src/tools/read-file.js';
import { readMediaFile } from '../src/tools/read-media-file.js';
import { readMultipleFiles } from '../src/tools/read-multiple-files.js';
import { readTextFile } from '../src/tools/read-text-file.js';
import { writeFile } from '../src/tools/write-file.js';
import { fsApp, textOf, type world } from './harness.js';

/** The temporary directories of one test. */
export type World = Awaited<ReturnType<typeof world>>;
/** A protocol era, as `connect` names it. */
export type Era = 'legacy' | 'modern';
/** Both eras, for `describe.each`. */
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** An app over `dirs` with the read, write and file-management tools. */
export function ioApp(dirs: string[], options: Parameters<typeof fsApp>[2] = {}) {
  return fsApp(
    dirs,
    [
      readTextFile,
      readFile,
      readMediaFile,
      readMultipleFiles,
      getFileInfo,
      listAllowedDirectories,
      writeFile,
      createDirectory,
      copyFile,
      moveFile,
      deleteFile,
    ],
    options,
  );
}

/** A client that can ask the user, answering every question with `answer`, and the questions it saw. */
export function asker(answer: () => 'accept' | 'decline' = () => 'accept') {
  const asked: string[] = [];
  return {
    asked,
    elicitation: (params: { message: string }) => {
      asked.push(params.message);
      return answer() === 'accept'
        ? { action: 'accept' as const, content: { confirm: true } }
        : { action: 'decline' as const };
    },
  };
}

/** Connects in `era`, optionally with an elicitation responder. */
export function open(app: App, era: Era, elicitation?: ReturnType<typeof asker>) {
  return connect(app, { era, ...(elicitation ? { elicitation: elicitation.elicitation } : {}) });
}

/**
 * Asserts a tool error that matches `pattern` and names no host path beyond what the caller sent:
 * the temp base may only appear inside an input echoed back.
 */
export function expectError(
  result: CallToolResult,
  w: World,
  pattern?: RegExp,
  inputs: string[] = [],
): string {
  const text = textOf(result);
  expect(result.isError, text).toBe(true);
  if (pattern) expect(text).toMatch(pattern);
  const stripped = inputs.reduce((t, input) => t.split(input).join(''), text);
  expect(stripped).not.toContain(w.base);
  expect(text).not.toMatch(/\n\s+at /);
  return text;
}

/** Asserts a successful result and returns its text. */
export function ok(result: CallToolResult): string {
  const text = textOf(result);
  expect(result.isError, text).toBeFalsy();
  return text;
}

export type { TestSession };
