import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { escapeName } from '../fs/display.js';

const FileInfo = z.object({
  path: z.string().describe('The path as the caller gave it'),
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  size: z.number().describe('Size in bytes'),
  created: z.string().optional().describe('Creation time (ISO 8601), when the file system records it'),
  modified: z.string(),
  accessed: z.string(),
  permissions: z.string().describe('Permission bits in octal, e.g. "644"'),
});

type Info = z.infer<typeof FileInfo>;

function typeOf(stats: Stats): Info['type'] {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Metadata of a file or directory, structured and as `key: value` lines like the official server. */
export const getFileInfo = defineTool({
  name: 'get_file_info',
  title: 'Get file info',
  description:
    'Returns metadata of a file or directory: size, creation, modification and access times, type and ' +
    'permissions. Does not read the content. Only works within the allowed directories.',
  input: z.object({ path: z.string().describe('The file or directory to describe') }),
  output: FileInfo,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ path }, call) {
    const target = await resolveArg(call, path);
    const stats = await lstat(target.real).catch((error: NodeJS.ErrnoException) => {
      // The path may name nothing yet (resolving allows that, for writers): say so, not "internal error".
      if (error.code === 'ENOENT') throw new UserError(`"${target.display}" does not exist; check the path.`);
      if (error.code === 'EACCES' || error.code === 'EPERM')
        throw new UserError(`"${target.display}" cannot be described: permission denied.`);
      throw error;
    });
    const info: Info = {
      // The caller's words: the real path behind a link is a host path the caller never sent.
      path,
      type: typeOf(stats),
      size: stats.size,
      // A zero birth time means the file system does not record one: leave it out rather than say 1970.
      ...(stats.birthtimeMs > 0 ? { created: stats.birthtime.toISOString() } : {}),
      modified: stats.mtime.toISOString(),
      accessed: stats.atime.toISOString(),
      permissions: (stats.mode & 0o777).toString(8).padStart(3, '0'),
    };
    const lines = Object.entries({
      ...info,
      // Escaped in the text, so a newline in the path cannot forge a line of its own.
      path: escapeName(path),
      isDirectory: info.type === 'directory',
      isFile: info.type === 'file',
    }).map(([key, value]) => `${key}: ${value}`);
    return { text: lines.join('\n'), structured: info };
  },
});
