import { defineResourceTemplate, repositoryNamed, repositoryNames } from '../context.js';
import { DIFF_SAFETY } from '../git/hardening.js';
import { recentCommits } from '../git/ref-names.js';
import { resolveCommit } from '../git/values.js';
import { decoded } from './uris.js';

/**
 * `git://{repo}/commit/{sha}`: one commit, its message, the files it changed and its patch, bounded
 * by core's output limit. Completion offers the latest commits of the chosen repository.
 */
export const commit = defineResourceTemplate({
  name: 'commit',
  uriTemplate: 'git://{repo}/commit/{sha}',
  title: 'Commit',
  description: 'A commit: author, date, message, changed files and patch.',
  mimeType: 'text/x-diff',
  complete: {
    repo: (_typed, lookup) => repositoryNames(lookup),
    sha: async (_typed, lookup, context) => {
      const repo = context?.arguments?.repo;
      return repo ? recentCommits(await repositoryNamed(lookup, decodeURIComponent(repo))) : [];
    },
  },
  async read(uri, variables, call) {
    const repo = await repositoryNamed(call, decoded(variables.repo, 'repository'));
    const sha = await resolveCommit(repo, 'commit', decoded(variables.sha, 'commit'), call.signal);
    const out = await repo.run(['show', ...DIFF_SAFETY, '--stat', '--patch', '--format=fuller', sha], {
      signal: call.signal,
      maxOutputBytes: call.app.outputLimitBytes + 1,
    });
    const text = out.truncated
      ? `${out.stdout}\n[… cut at ${call.app.outputLimitBytes} bytes: use git_show to page]`
      : out.stdout;
    return { contents: [{ uri: uri.href, mimeType: 'text/x-diff', text }] };
  },
});
