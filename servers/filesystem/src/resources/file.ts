import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NotFound, UserError } from '@mcpkit/core/errors';
import { sanitizeForMessage, slowPaths } from '@mcpkit/core/roots';
import { watchFile } from '@mcpkit/core/subscriptions';
import { defineResourceTemplate, type FsLookup } from '../context.js';
import { resolvePath } from '../fs/paths.js';
import { openRegularFile } from '../fs/safe-open.js';
import { isSensitive } from '../fs/sensitive.js';
import { listDirectory } from '../fs/verified-listing.js';
import { guardReads } from '../stall.js';
import { completePath } from './complete-path.js';
import { contentTypeOf, isTextType } from './content-type.js';

/** Every file under the allowed directories is a resource: `file:///abs/path`. */
export const FILE_TEMPLATE = 'file://{+path}';

/** The `file://` URI of a path, as resources name it. */
export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The path of a `file://` URI, or `undefined` for anything else (other schemes, remote hosts). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** The files at the top of each allowed directory: deeper files are reached through the template. */
async function topFiles(lookup: FsLookup) {
  const roots = await lookup.roots();
  const resources = [];
  for (const root of roots.roots) {
    // A root on a stalled mount is left out after the guard's deadline, not waited for.
    const entries = await lookup.context.stallGuard
      .run(undefined, async (scope) => {
        await scope.enter(root.path, root.name);
        return listDirectory(root.path);
      })
      .catch(() => []);
    for (const e of entries) {
      const path = join(root.path, e.name);
      if (!e.isFile() || (!lookup.context.allowSensitive && isSensitive(path))) continue;
      resources.push({
        uri: fileUri(path),
        name: e.name,
        mimeType: contentTypeOf(e.name) ?? 'text/plain',
      });
    }
  }
  return resources;
}

// The real path of a file to watch, or of its directory plus its name when it does not exist yet;
// `undefined` when neither resolves.
function realPathForWatch(path: string): string | undefined {
  // Watching asks the file system synchronously (realpath here, inotify's lookup in the watcher),
  // and a network mount sends no change events anyway: files there are not watched.
  if (slowPaths.isSlow(path)) return undefined;
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return undefined;
    }
  }
}

/**
 * Files as resources: a template that completes paths (context-aware: it lists the directory being
 * typed), a listing of the files at the top of each allowed directory, reads held to the output
 * budget (text as text, anything else as a blob), and a watch while a client is subscribed.
 */
export const file = defineResourceTemplate(
  guardReads({
    name: 'file',
    uriTemplate: FILE_TEMPLATE,
    title: 'File',
    description: 'A file inside the allowed directories.',
    list: topFiles,
    complete: {
      path: async (typed, lookup) =>
        completePath(await lookup.roots(), typed, {
          allowSensitive: lookup.context.allowSensitive,
          stallGuard: lookup.context.stallGuard,
        }),
    },
    async read(uri, _variables, call) {
      const path = uriToPath(uri.href);
      if (path === undefined) {
        throw new NotFound(
          'Only file:/// URIs of this machine name files here; give one inside the allowed directories.',
        );
      }
      const target = await resolvePath(await call.roots(), call.context, path);
      if (!target.exists) {
        throw new NotFound(
          `"${sanitizeForMessage(target.display)}" does not exist; list its directory with list_directory to see what is there.`,
        );
      }
      const limit = call.app.outputLimitBytes;
      const { handle, size } = await openRegularFile(target.real, target.display);
      try {
        // The budget cuts text later; never read far more than it can carry.
        const want = Math.min(size, limit + 1);
        const buffer = new Uint8Array(want);
        const { bytesRead } = await handle.read(buffer, 0, want, 0);
        const bytes = buffer.subarray(0, bytesRead);
        const mimeType = contentTypeOf(target.real);
        if (isTextType(mimeType) && !looksBinary(bytes)) {
          // Core's read budget cuts this with a notice when the file is longer than one read carries.
          const text = new TextDecoder().decode(bytes);
          return { contents: [{ uri: uri.href, mimeType: mimeType ?? 'text/plain', text }] };
        }
        if (size > limit) {
          throw new UserError(
            `"${target.display}" is ${size} bytes, more than one read may carry; use read_media_file.`,
          );
        }
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: mimeType ?? 'application/octet-stream',
              blob: Buffer.from(bytes).toString('base64'),
            },
          ],
        };
      } finally {
        await handle.close();
      }
    },
    // A subscribed file:// URI is watched while someone listens; only paths inside the ceiling, judged
    // (like every tool path) by where they really are: a link on the way must not put a file outside
    // the roots, or a secret behind an innocent name, under watch.
    watch(uri, { app, context }) {
      const path = uriToPath(uri);
      const real = path === undefined ? undefined : realPathForWatch(path);
      if (real === undefined || slowPaths.isSlow(real) || !app.rootsCeiling?.contains(real)) return undefined;
      if (!context.allowSensitive && isSensitive(real)) return undefined;
      return watchFile(real, app.log);
    },
  }),
);
