import { NotFound, UserError } from '@mcpkit/core/errors';
import { defineResourceTemplate, repositoryNamed, repositoryNames } from '../context.js';
import { refNames, treePaths } from '../git/ref-names.js';
import type { Repository } from '../git/repository.js';
import { checkValue, resolveCommit, shown } from '../git/values.js';
import { decoded } from './uris.js';

/** Files larger than this are not served whole: read them with git_show or a narrower tool. */
const MAX_BLOB_BYTES = 5 * 1024 * 1024;

/**
 * `git://{repo}/blob/{ref}/{+path}`: a file as it is at a branch, tag or commit. The ref is
 * resolved to its commit first; the object is read raw (`cat-file`), so no filter or textconv runs.
 * Completion offers refs, then the paths of the tree the chosen ref names.
 */
export const blob = defineResourceTemplate({
  name: 'file-at-ref',
  uriTemplate: 'git://{repo}/blob/{ref}/{+path}',
  title: 'File at a ref',
  description: 'A file of a repository as it is at a branch, tag or commit.',
  complete: {
    repo: (_typed, lookup) => repositoryNames(lookup),
    ref: async (_typed, lookup, context) => {
      const repo = context?.arguments?.repo;
      return repo ? refNames(await repositoryNamed(lookup, safeDecode(repo))) : [];
    },
    path: async (_typed, lookup, context) => {
      const { repo, ref } = context?.arguments ?? {};
      if (!repo || !ref) return [];
      const repository = await repositoryNamed(lookup, safeDecode(repo));
      return treePaths(repository, await resolveCommit(repository, 'ref', safeDecode(ref)));
    },
  },
  async read(uri, variables, call) {
    const repo = await repositoryNamed(call, decoded(variables.repo, 'repository'));
    const sha = await resolveCommit(repo, 'ref', decoded(variables.ref, 'ref'), call.signal);
    const path = checkValue('path', decoded(variables.path, 'path'));
    if (path.split('/').some((part) => part === '..' || part === '.' || part === '')) {
      throw new UserError(
        `The path "${shown(path)}" must be a plain path inside the repository, without "." or "..".`,
      );
    }
    const object = `${sha}:${path}`;
    const kind = await repo.runRaw(['cat-file', '-t', object], { signal: call.signal });
    if (kind.code !== 0 || kind.stdout.trim() !== 'blob')
      throw new NotFound(`No file "${shown(path)}" at that ref.`);
    const size = Number((await repo.run(['cat-file', '-s', object], { signal: call.signal })).stdout.trim());
    if (size > MAX_BLOB_BYTES) {
      throw new UserError(
        `"${shown(path)}" is ${size} bytes at that ref, more than the ${MAX_BLOB_BYTES} a resource serves.`,
      );
    }
    const bytes = await blobBytes(repo, object, call.signal);
    if (bytes.subarray(0, 8000).includes(0)) {
      return {
        contents: [{ uri: uri.href, mimeType: 'application/octet-stream', blob: bytes.toString('base64') }],
      };
    }
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: bytes.toString('utf8') }] };
  },
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The raw bytes of a blob (simple-git keeps them binary; its size was checked first). */
function blobBytes(repo: Repository, object: string, signal: AbortSignal): Promise<Buffer> {
  return repo.simple(signal).binaryCatFile(['blob', object]);
}
