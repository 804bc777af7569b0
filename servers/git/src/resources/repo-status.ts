import { pollWatch } from '@mcpkit/core/subscriptions';
import { defineResourceTemplate, repositoryNamed, repositoryNames } from '../context.js';
import { parseStatus, statusText } from '../git/parse-status.js';
import { stateTag } from '../git/ref-names.js';
import { decoded, repoUri } from './uris.js';

/**
 * `git://{repo}/status`: the working tree status of each repository, listed. A subscriber hears
 * `resources/updated` when HEAD, a ref or the index changes (polled; no work-tree scan).
 */
export const repoStatus = defineResourceTemplate({
  name: 'repository-status',
  uriTemplate: 'git://{repo}/status',
  title: 'Repository status',
  description: 'The branch, staged and unstaged changes and untracked files of a repository.',
  mimeType: 'text/plain',
  list: async (lookup) =>
    (await repositoryNames(lookup)).map((name) => ({
      uri: repoUri(name, 'status'),
      name: `${name} status`,
      mimeType: 'text/plain',
    })),
  complete: { repo: (_typed, lookup) => repositoryNames(lookup) },
  async read(uri, { repo }, call) {
    const repository = await repositoryNamed(call, decoded(repo, 'repository'));
    const out = await repository.run(['status', '--porcelain=v2', '--branch', '-z'], { signal: call.signal });
    return {
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: statusText(parseStatus(out.stdout), 2_000) }],
    };
  },
  watch: (uri, lookup) => {
    const name = decodeURIComponent(new URL(uri).host);
    return pollWatch({
      intervalMs: 1_000,
      log: lookup.app.log,
      version: async (_uri, signal) => stateTag(await repositoryNamed(lookup, name), signal),
    });
  },
});
