/**
 * The filesystem server as a program: its command line, the settings a bundle asks for, and how
 * a parsed command line becomes the app. `bin.ts` runs it; the build tool reads it to write the
 * bundle manifest, server.json and the README's install examples.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { errorMessage } from '@mcpkit/core/errors';
import { RootSet, StallGuard, slowPaths } from '@mcpkit/core/roots';
import { type ParsedCommandLine, type ServerBin, UsageError } from '@mcpkit/core/runner';
import { DEFAULT_STALL_TIMEOUT_MS } from './context.js';
import { createFilesystemApp, NAME, PACKAGE_JSON } from './server.js';

export const cli: ServerBin = {
  bin: NAME,
  packageJson: PACKAGE_JSON,
  title: 'Filesystem (mcpkit)',
  usage: '[options] <directory>...',
  positionals: {
    name: 'directory',
    description: 'A directory the server may use, with everything below it (repeatable).',
    required: true,
    repeated: true,
  },
  exampleArgs: ['/Users/you/projects'],
  options: {
    'allow-sensitive': {
      type: 'boolean',
      description: 'allow files that usually hold secrets (.env, keys, .ssh/…)',
    },
    'confirm-overwrite': {
      type: 'boolean',
      description: 'ask the user before write_file replaces an existing file',
    },
    'slow-path': {
      type: 'string',
      multiple: true,
      description:
        'treat this directory as a network or FUSE mount, whatever its file system says (repeatable)',
      valueName: 'dir',
    },
    'stall-timeout': {
      type: 'string',
      description: 'seconds a call on a network or FUSE mount may go without progress (default 15)',
      valueName: 's',
    },
    'max-media-bytes': {
      type: 'string',
      description: 'largest file read_media_file returns (default 5242880)',
      valueName: 'n',
    },
  },
  settings: {
    directories: {
      title: 'Directories',
      description: 'The folders the server may read and, unless read-only, change.',
      type: 'directory',
      multiple: true,
      required: true,
      fills: 'positionals',
    },
    read_only: {
      title: 'Read-only',
      description: 'Offer only the tools that change nothing.',
      type: 'boolean',
      default: false,
      fills: { flag: 'read-only' },
    },
    allow_sensitive: {
      title: 'Allow secret files',
      description: 'Also read and write files that usually hold secrets, such as .env files and keys.',
      type: 'boolean',
      default: false,
      fills: { flag: 'allow-sensitive' },
    },
    confirm_overwrite: {
      title: 'Confirm overwrites',
      description: 'Ask before write_file replaces a file that already exists.',
      type: 'boolean',
      default: false,
      fills: { flag: 'confirm-overwrite' },
    },
  },
  async create(cli, log) {
    if (cli.positionals.length === 0) {
      throw new UsageError(
        'Give at least one directory the server may use, e.g. mcpkit-filesystem ~/projects/app.',
      );
    }
    const roots = await RootSet.create(cli.positionals).catch((error: unknown) => {
      throw new UsageError(errorMessage(error));
    });
    const media = cli.values['max-media-bytes'];
    // Digits only, as core reads its numbers: Number() would take '0x10', '1e3' and ' '.
    const maxMediaBytes =
      typeof media === 'string' ? (/^\d+$/.test(media) ? Number(media) : Number.NaN) : undefined;
    if (maxMediaBytes !== undefined && (!Number.isSafeInteger(maxMediaBytes) || maxMediaBytes < 1)) {
      const given = cli.sources['max-media-bytes'] ?? '--max-media-bytes';
      throw new UsageError(`${given} must be a whole number of bytes.`);
    }
    await slowPaths.ready();
    const slow = cli.values['slow-path'];
    for (const dir of Array.isArray(slow) ? slow : []) {
      // Both spellings: paths are compared after realpath, and a link may be what the operator typed.
      slowPaths.add(resolve(String(dir)));
      const real = await realpath(String(dir)).catch(() => undefined);
      if (real !== undefined) slowPaths.add(real);
    }
    const stallGuard = new StallGuard({ timeoutMs: stallTimeoutMs(cli) });
    return createFilesystemApp({
      stallGuard,
      roots,
      log,
      readOnly: cli.common.readOnly,
      allowSensitive: cli.values['allow-sensitive'] === true,
      confirmOverwrite: cli.values['confirm-overwrite'] === true,
      ...(maxMediaBytes ? { maxMediaBytes } : {}),
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
};

/** `--stall-timeout`, in seconds (a decimal point allowed), as milliseconds. */
function stallTimeoutMs(cli: ParsedCommandLine): number {
  const given = cli.values['stall-timeout'];
  if (typeof given !== 'string') return DEFAULT_STALL_TIMEOUT_MS;
  const seconds = /^\d{1,4}(\.\d{1,3})?$/.test(given) ? Number(given) : Number.NaN;
  if (!(seconds > 0 && seconds <= 3600)) {
    const source = cli.sources['stall-timeout'] ?? '--stall-timeout';
    throw new UsageError(`${source} must be a number of seconds from 0.001 to 3600.`);
  }
  return Math.round(seconds * 1000);
}
