/**
 * The git server's test world, for the layers that run the built bin (end to end, conformance,
 * HTTP security, packaging, `npm start`, the bench): a folder of two repositories, each on a
 * branch of its own, so two simultaneous status calls have answers that cannot be mistaken.
 */
import { join } from 'node:path';
import { defineTestWorld } from '@mcpkit/core/testing';
import { git, makeRepo } from './make-repo.js';

export const world = defineTestWorld({
  tools: ['git_status', 'git_log', 'git_diff', 'git_show', 'git_commit', 'git_add'],
  async setup(dir) {
    const repos = join(dir, 'repos');
    for (const name of ['alpha', 'beta']) {
      const repo = await makeRepo(join(repos, name), [{ 'README.md': `# ${name}\n` }]);
      git(repo, 'switch', '-q', '-c', `${name}-work`);
    }
    const status = (name: string) => ({
      tool: 'git_status',
      args: { repo_path: join(repos, name) },
      expect: `On branch ${name}-work`,
    });
    return {
      args: [repos],
      roots: [repos],
      reads: [status('alpha'), status('beta')],
      bundleSettings: { repository: repos },
    };
  },
  conformance: {
    '2026-07-28': {
      'caching:sep-2549-resources-read-caching-hints':
        "the first listed resource is a repository's status, read with the roots the suite declares but never answers, so the read waits for them",
    },
  },
});
