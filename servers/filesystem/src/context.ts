import type { ResolvedPath, ResolveMode } from '@mcpkit/core/roots';
import type { App, Scope, ToolCall } from '@mcpkit/core/server';
import { type PathPolicy, resolvePath } from './fs/paths.js';

/** The filesystem server's own settings, beside core's app options. */
export interface FsSettings extends PathPolicy {
  /** Largest file read_media_file returns, in bytes. */
  maxMediaBytes: number;
}

export const DEFAULT_FS_SETTINGS: FsSettings = { allowSensitive: false, maxMediaBytes: 5 * 1024 * 1024 };

const settings = new WeakMap<App, FsSettings>();

/** Attaches the filesystem settings to an app (done once, in `createFilesystemApp`). */
export function attachSettings(app: App, value: FsSettings): void {
  settings.set(app, value);
}

/** The filesystem settings of the app a tool or resource runs in. */
export function settingsOf(scope: Scope): FsSettings {
  return settings.get(scope.app) ?? DEFAULT_FS_SETTINGS;
}

/**
 * Resolves a path argument of a tool call against this call's roots and the server's policy.
 *
 * @example
 * ```ts
 * const file = await resolveArg(call, args.path);            // must exist to be read
 * const target = await resolveArg(call, args.path, 'write'); // may not exist yet
 * ```
 */
export async function resolveArg(
  call: ToolCall,
  input: string,
  mode: ResolveMode = 'read',
): Promise<ResolvedPath> {
  return resolvePath(await call.roots(), settingsOf(call.scope), input, mode);
}
