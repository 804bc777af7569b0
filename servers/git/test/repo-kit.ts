/**
 * Fixture repositories for the git server's tests, made with plain git under a temporary folder:
 * `outside/` beside the allowed directory holds what no call may reach.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { createGitApp, type GitOptions } from '../src/server.js';
import { makeRepo } from './make-repo.js';

export { FIXTURE_ENV, git, makeRepo } from './make-repo.js';

export interface RepoFixture {
  base: string;
  repo: string;
  outside: string;
  app: ReturnType<typeof createGitApp>;
  cleanup(): Promise<void>;
}

/** `base/repos/app` with three commits, `base/outside` with a secret, and the app on `base/repos`. */
export async function repoFixture(options: Partial<GitOptions> = {}): Promise<RepoFixture> {
  const base = await mkdtemp(join(tmpdir(), 'mcpkit-git-'));
  const repos = join(base, 'repos');
  const repo = await makeRepo(join(repos, 'app'), [
    { 'README.md': '# App\n', 'src/main.ts': 'export const a = 1;\n' },
    { 'src/main.ts': 'export const a = 2;\n' },
    { 'docs/guide.md': 'Read me first.\n' },
  ]);
  const outside = join(base, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  const app = createGitApp({
    roots: await RootSet.create([repos]),
    defaultRepository: repo,
    notifyDebounceMs: 20,
    ...options,
  });
  return {
    base,
    repo,
    outside,
    app,
    async cleanup() {
      await app.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}
