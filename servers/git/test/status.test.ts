import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git, type RepoFixture, repoFixture } from './repo-kit.js';

describe.each(['legacy', 'modern'] as const)('git_status, %s era', (era) => {
  let fx: RepoFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('reports the branch, staged, unstaged and untracked files, as text and structured', async () => {
    fx = await repoFixture();
    await writeFile(join(fx.repo, 'README.md'), '# App, changed\n');
    await writeFile(join(fx.repo, 'new file.txt'), 'new\n');
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 3;\n');
    git(fx.repo, 'add', 'src/main.ts');
    session = await connect(fx.app, { era });
    const result = await session.callTool('git_status', { repo_path: fx.repo });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      branch: 'main',
      staged: [{ path: 'src/main.ts', staged: 'M', unstaged: '.' }],
      unstaged: [{ path: 'README.md', staged: '.', unstaged: 'M' }],
      untracked: ['new file.txt'],
    });
    const text = textOf(result);
    expect(text).toContain('On branch main');
    expect(text).toContain('modified: src/main.ts');
    expect(text).toContain('new file.txt');
  });

  it('uses the default repository when repo_path is left out', async () => {
    fx = await repoFixture();
    session = await connect(fx.app, { era });
    const result = await session.callTool('git_status', {});
    expect(textOf(result)).toContain('Nothing to commit');
  });

  it('refuses a repository outside the allowed directories without naming host paths', async () => {
    fx = await repoFixture();
    git(fx.outside, 'init', '-q');
    session = await connect(fx.app, { era });
    const result = await session.callTool('git_status', { repo_path: '../outside' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain(fx.base);
  });
});
