import * as z from 'zod';
import { definePrompt, repoPathArg, repositoryOf } from '../context.js';
import { boundedText } from '../git/bounded-text.js';
import { DIFF_SAFETY } from '../git/hardening.js';
import { resolveCommit } from '../git/values.js';
import { completeRef, completeRepository } from './complete.js';

/** Bytes of diff a prompt carries; the model can page the rest with git_diff. */
const MAX_DIFF_BYTES = 200_000;

/** A review of the work on this branch against a base: the commits since it and their diff. */
export const reviewChanges = definePrompt({
  name: 'review_changes',
  title: 'Review changes against a base branch',
  description:
    'Asks the model to review the commits and diff of HEAD (and uncommitted work) against a base branch.',
  args: z.object({
    repo_path: repoPathArg,
    base: z.string().describe('The branch or commit to compare against, e.g. main'),
    focus: z.string().optional().describe('What to look at most: correctness, security, naming, tests…'),
  }),
  complete: {
    repo_path: completeRepository,
    base: completeRef,
    focus: () => ['correctness', 'security', 'tests', 'naming'],
  },
  async get(args, call) {
    const repo = await repositoryOf(call, args.repo_path);
    const base = await resolveCommit(repo, 'base', args.base, call.signal);
    const mergeBase = (await repo.run(['merge-base', base, 'HEAD'], { signal: call.signal })).stdout.trim();
    const log = await repo.run(['log', '--format=%h %s (%an)', `${mergeBase}..HEAD`], {
      signal: call.signal,
    });
    const diff = await repo.run(['diff', ...DIFF_SAFETY, '--stat', '--patch', mergeBase], {
      signal: call.signal,
      maxOutputBytes: MAX_DIFF_BYTES * 2,
    });
    const focus = args.focus ? ` Pay most attention to ${args.focus}.` : '';
    const text =
      `Review the changes on this branch against ${args.base} (merge base ${mergeBase.slice(0, 12)}), ` +
      `including uncommitted work. Point out bugs, risks and unclear code, each with the file and line.${focus}\n\n` +
      `Commits:\n${log.stdout.trim() || '(none: only uncommitted changes)'}\n\n` +
      `Diff:\n${boundedText(diff.stdout, MAX_DIFF_BYTES, 'diff') || '(no changes)'}`;
    return {
      description: `Review of the changes against ${args.base}`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  },
});
