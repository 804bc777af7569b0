import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from './repo-kit.js';
import { type WriteFixture, writeFixture } from './write-kit.js';

describe.each(['legacy', 'modern'] as const)('git_add and git_reset, %s era', (era) => {
  let fx: WriteFixture;
  afterEach(async () => fx.cleanup());

  it('stages the named files only', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# changed\n');
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 9;\n');
    await writeFile(join(fx.repo, 'new file.txt'), 'new\n');
    const result = await fx.session.callTool('git_add', { files: ['README.md', 'new file.txt'] });
    expect(result.isError).toBeFalsy();
    expect(fx.status().sort()).toEqual(['A  "new file.txt"', 'M  README.md', ' M src/main.ts'].sort());
  });

  it('stages everything, deletions included, for "."', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# changed\n');
    git(fx.repo, 'rm', '-q', '--cached', 'docs/guide.md');
    await writeFile(join(fx.repo, 'docs/guide.md'), '');
    git(fx.repo, 'add', 'docs/guide.md');
    await writeFile(join(fx.repo, 'untracked.txt'), 'u\n');
    git(fx.repo, 'rm', '-q', 'src/main.ts');
    git(fx.repo, 'reset', '-q');
    const result = await fx.session.callTool('git_add', { files: ['.'] });
    expect(result.isError).toBeFalsy();
    expect(fx.status().sort()).toEqual([
      'A  untracked.txt',
      'D  src/main.ts',
      'M  README.md',
      'M  docs/guide.md',
    ]);
  });

  it('accepts an absolute path inside the work tree', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# changed\n');
    const result = await fx.session.callTool('git_add', { files: [join(fx.repo, 'README.md')] });
    expect(result.isError).toBeFalsy();
    expect(fx.status()).toEqual(['M  README.md']);
  });

  it('refuses paths outside the work tree and stages nothing', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# changed\n');
    await symlink(fx.outside, join(fx.repo, 'link'));
    for (const file of [
      '../../outside/secret.txt',
      join(fx.outside, 'secret.txt'),
      'link/secret.txt',
      '..',
    ]) {
      const result = await fx.session.callTool('git_add', { files: ['README.md', file] });
      expect(result.isError, file).toBe(true);
      // The error may echo what the client sent, never a host path it did not send.
      if (!file.startsWith('/')) expect(textOf(result)).not.toContain(fx.base);
      expect(textOf(result)).not.toContain('top secret');
    }
    expect(fx.status()).toEqual([' M README.md', '?? link']);
  });

  it('reads no value as an option or as pathspec magic', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# changed\n');
    for (const file of ['--all', '-A', '--pathspec-from-file=/etc/passwd', 'a\0b', 'x'.repeat(2000)]) {
      const result = await fx.session.callTool('git_add', { files: [file] });
      expect(result.isError, file.slice(0, 20)).toBe(true);
    }
    await writeFile(join(fx.repo, '*.md'), 'a file named *.md\n');
    await writeFile(join(fx.repo, ':(glob)x'), 'magic-looking name\n');
    const result = await fx.session.callTool('git_add', { files: ['*.md', ':(glob)x'] });
    expect(result.isError).toBeFalsy();
    expect(fx.status().sort()).toEqual(['A  *.md', 'A  :(glob)x', ' M README.md'].sort());
  });

  it('says which path matches nothing', async () => {
    fx = await writeFixture(era);
    const result = await fx.session.callTool('git_add', { files: ['nope.txt'] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Nothing was staged: "nope.txt" matches no file/);
  });

  it('reports ignored files instead of forcing them in', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, '.gitignore'), 'build/\n');
    await mkdir(join(fx.repo, 'build'));
    await writeFile(join(fx.repo, 'build/out.js'), 'x\n');
    const result = await fx.session.callTool('git_add', { files: ['.gitignore', 'build/out.js'] });
    expect(textOf(result)).toMatch(/^Not staged because .gitignore ignores them: build;/);
    expect(fx.status()).toEqual(['A  .gitignore']);
  });

  it('git_reset unstages everything and keeps the work tree', async () => {
    fx = await writeFixture(era);
    await writeFile(join(fx.repo, 'README.md'), '# changed\n');
    await writeFile(join(fx.repo, 'new.txt'), 'new\n');
    git(fx.repo, 'add', '-A');
    const result = await fx.session.callTool('git_reset', {});
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ unstaged: ['README.md', 'new.txt'], total: 2 });
    expect(fx.status()).toEqual([' M README.md', '?? new.txt']);
    expect(fx.subjects()).toHaveLength(3);
    const again = await fx.session.callTool('git_reset', {});
    expect(textOf(again)).toBe('Nothing was staged.');
  });

  it('git_reset works in a repository without commits', async () => {
    fx = await writeFixture(era);
    const empty = join(fx.base, 'repos', 'empty');
    await mkdir(empty);
    git(empty, 'init', '-q');
    await writeFile(join(empty, 'a.txt'), 'a\n');
    git(empty, 'add', 'a.txt');
    const result = await fx.session.callTool('git_reset', { repo_path: empty });
    expect(result.structuredContent).toEqual({ unstaged: ['a.txt'], total: 1 });
    expect(git(empty, 'status', '--porcelain')).toBe('?? a.txt\n');
  });
});
