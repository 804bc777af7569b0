/**
 * The filesystem server as a program: its command line, the settings a bundle asks for, and how
 * a parsed command line becomes the app. `bin.ts` runs it; the build tool reads it to write the
 * bundle manifest, server.json and the README's install examples.
 */
import type { Logger } from '@mcpkit/core/logging';
import { DEFAULT_STALL_TIMEOUT_MS, RootSet, StallGuard, slowPaths } from '@mcpkit/core/roots';
import {
  commandLineRoots,
  type ParsedCommandLine,
  type ServerBin,
  secondsOption,
  UsageError,
} from '@mcpkit/core/runner';
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
    const media = cli.values['max-media-bytes'];
    // Digits only, as core reads its numbers: Number() would take '0x10', '1e3' and ' '.
    const maxMediaBytes =
      typeof media === 'string' ? (/^\d+$/.test(media) ? Number(media) : Number.NaN) : undefined;
    if (maxMediaBytes !== undefined && (!Number.isSafeInteger(maxMediaBytes) || maxMediaBytes < 1)) {
      const given = cli.sources['max-media-bytes'] ?? '--max-media-bytes';
      throw new UsageError(`${given} must be a whole number of bytes.`);
    }
    const stallGuard = new StallGuard({
      // A decimal point allowed: tests and impatient operators want less than a second.
      timeoutMs:
        secondsOption(
          cli,
          'stall-timeout',
          { min: 0.001, max: 3600, decimals: 3 },
          (source) => `${source} must be a number of seconds from 0.001 to 3600.`,
        ) ?? DEFAULT_STALL_TIMEOUT_MS,
    });
    await slowPaths.ready();
    // Before the directories: a directory on a mount only the operator knows is slow is then
    // checked under the deadline too.
    await addSlowPaths(cli, stallGuard, log);
    // A directory on a stalled mount is served as given, with a warning: it cannot hang the start.
    const roots = await commandLineRoots(cli.positionals, log, stallGuard);
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

/**
 * `--slow-path`: each directory is slow as typed (`~` expanded as for the directory arguments) and
 * as its real path, since paths are compared after realpath and a link may be what was typed. That
 * realpath runs under the stall deadline: on a stalled mount the typed path has to do.
 */
async function addSlowPaths(cli: ParsedCommandLine, guard: StallGuard, log: Logger): Promise<void> {
  const given = cli.values['slow-path'];
  const dirs = (Array.isArray(given) ? given : []).map(String);
  const source = cli.sources['slow-path'] ?? '--slow-path';
  const typed = dirs.map((dir) => {
    const path = RootSet.configuredPath(dir);
    if (path === undefined)
      throw new UsageError(
        `${source} is empty or has control characters; give the directory a network or FUSE file system is mounted on.`,
      );
    slowPaths.add(path);
    return path;
  });
  // All at once: several stalled mounts cost one deadline.
  const found = await Promise.all(typed.map((path) => RootSet.probe(path, guard)));
  for (const [index, probe] of found.entries()) {
    const named = `${source} ${JSON.stringify(dirs[index])}`;
    if ('real' in probe) slowPaths.add(probe.real);
    // An operator's typo would otherwise make nothing slow, silently.
    else if (probe.not === 'missing')
      throw new UsageError(`${named} does not exist or cannot be accessed; check the path, or leave it out.`);
    else if (probe.not === 'file')
      throw new UsageError(
        `${named} is not a directory; give the directory a network or FUSE file system is mounted on.`,
      );
    else
      log.warn(
        `${named} did not answer within ${guard.timeoutMs / 1000} s, so that mount may be stalled; it is treated as slow as typed.`,
      );
  }
}
