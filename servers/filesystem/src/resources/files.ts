import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { completer } from '@mcpkit/core/completion';
import { UserError } from '@mcpkit/core/errors';
import { NotFound, readResource, type Scope } from '@mcpkit/core/server';
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { settingsOf } from '../context.js';
import { resolvePath } from '../fs/paths.js';
import { openRegularFile } from '../fs/safe-open.js';
import { isSensitive } from '../fs/sensitive.js';
import { listDirectory } from '../fs/verified-listing.js';
import { completePath } from './complete-path.js';
import { contentTypeOf, isTextType } from './content-type.js';

/** Every file under the allowed directories is a resource: `file:///abs/path`. */
export const FILE_TEMPLATE = 'file://{+path}';

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

/**
 * Registers files as resources: a template that completes paths (context-aware: it lists the
 * directory being typed), a listing of the files at the top of each allowed directory (deeper
 * files are reached through the template), and reads held to the output budget, text as text and
 * anything else as a blob.
 */
export function registerFileResources(scope: Scope): void {
  const settings = settingsOf(scope);
  const current = async () => {
    if (!scope.roots) throw new UserError('No directories are configured.');
    return scope.roots.current();
  };
  scope.mcp.registerResource(
    'file',
    new ResourceTemplate(FILE_TEMPLATE, {
      list: async () => {
        const roots = await current();
        const resources = [];
        for (const root of roots.roots) {
          const entries = await listDirectory(root.path).catch(() => []);
          for (const e of entries) {
            const path = join(root.path, e.name);
            if (!e.isFile() || (!settings.allowSensitive && isSensitive(path))) continue;
            resources.push({
              uri: pathToFileURL(path).href,
              name: e.name,
              mimeType: contentTypeOf(e.name) ?? 'text/plain',
            });
          }
        }
        return { resources };
      },
      complete: {
        path: completer(async (value) =>
          completePath(await current(), value ?? '', { allowSensitive: settings.allowSensitive }),
        ),
      },
    }),
    { title: 'File', description: 'A file inside the allowed directories.' },
    (uri, _vars, ctx) =>
      readResource(scope, uri, ctx, async (flow) => {
        const path = uriToPath(uri.href);
        if (path === undefined || !scope.roots) throw new NotFound();
        const target = await resolvePath(await scope.roots.forCall(flow), settings, path);
        if (!target.exists) throw new NotFound();
        const { handle, size } = await openRegularFile(target.real, target.display);
        try {
          // The budget cuts text later; never read far more than it can carry.
          const want = Math.min(size, scope.app.outputLimitBytes + 1);
          const buffer = new Uint8Array(want);
          const { bytesRead } = await handle.read(buffer, 0, want, 0);
          const bytes = buffer.subarray(0, bytesRead);
          const mimeType = contentTypeOf(target.real);
          if (isTextType(mimeType) && !looksBinary(bytes)) {
            // Core's read budget cuts this with a notice when the file is longer than one read carries.
            const text = new TextDecoder().decode(bytes);
            return { contents: [{ uri: uri.href, mimeType: mimeType ?? 'text/plain', text }] };
          }
          if (size > scope.app.outputLimitBytes) {
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
      }),
  );
}
