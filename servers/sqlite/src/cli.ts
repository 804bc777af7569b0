/**
 * The SQLite server as a program: its command line, the settings a bundle asks for, and how a
 * parsed command line becomes the app. `bin.ts` runs it; the build tool reads it to write the
 * bundle manifest, server.json and the README's install examples.
 */
import { errorMessage } from '@mcpkit/core/errors';
import { commandLineRoots, type ServerBin, secondsOption, UsageError } from '@mcpkit/core/runner';
import { createSqliteApp, NAME, PACKAGE_JSON } from './server.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIME_LIMIT_S } from './sql/query-limits.js';

export const cli: ServerBin = {
  bin: NAME,
  packageJson: PACKAGE_JSON,
  title: 'SQLite (mcpkit)',
  usage: '--db <file> [--write] [--export-dir <dir>]... [--time-limit <seconds>]',
  positionals: {
    name: 'database',
    description: 'The SQLite database file, when --db is not given.',
    required: false,
    repeated: false,
  },
  exampleArgs: ['--db', '/Users/you/data/app.db'],
  options: {
    db: {
      type: 'string',
      description: 'the SQLite database file (a single positional path works too)',
      valueName: 'file',
    },
    write: {
      type: 'boolean',
      description: 'allow statements that change the database (read-only without it)',
    },
    'export-dir': {
      type: 'string',
      multiple: true,
      description: 'a directory export_query may write files into (repeatable)',
      valueName: 'dir',
    },
    'time-limit': {
      type: 'string',
      description: `seconds one statement may run before it is stopped (default ${DEFAULT_TIMEOUT_MS / 1000}, at most ${MAX_TIME_LIMIT_S})`,
      valueName: 'seconds',
    },
  },
  settings: {
    database: {
      title: 'Database file',
      description: 'The SQLite database the server answers questions about.',
      type: 'file',
      required: true,
      fills: 'positionals',
    },
    write: {
      title: 'Allow changes',
      description: 'Allow statements that change the database; without this the engine refuses them.',
      type: 'boolean',
      default: false,
      fills: { flag: 'write' },
    },
  },
  async create(cli, log) {
    const flag = cli.values.db as string | undefined;
    if (flag !== undefined && cli.positionals.length > 0) {
      throw new UsageError('Give the database once: either --db <file> or a single path.');
    }
    if (cli.positionals.length > 1) {
      throw new UsageError('Give one database file; this server works on one database at a time.');
    }
    const database = flag ?? cli.positionals[0];
    if (database === undefined) {
      throw new UsageError(
        'Give the database file, e.g. mcpkit-sqlite --db ./app.db (add --write to allow changes).',
      );
    }
    const write = cli.values.write === true;
    // Name what the user set: any of these may have come from an MCPKIT_ variable.
    const named = (flag: string) => cli.sources[flag] ?? `--${flag}`;
    if (write && cli.common.readOnly) {
      throw new UsageError(`Give ${named('write')} or ${named('read-only')}, not both.`);
    }
    const exportDirs = (cli.values['export-dir'] as string[] | undefined) ?? [];
    if (exportDirs.length > 0 && cli.common.readOnly) {
      // --read-only hides export_query's file writes with every other change: the directory would go unused.
      throw new UsageError(
        `Give ${named('export-dir')} or ${named('read-only')}, not both: read-only writes no export files.`,
      );
    }
    const timeLimitMs = secondsOption(
      cli,
      'time-limit',
      { min: 1, max: MAX_TIME_LIMIT_S },
      (source, given) => {
        const shown = given.length > 40 ? `${given.slice(0, 40)}…` : given;
        return `${source} is ${JSON.stringify(shown)}, but the time limit must be a whole number of seconds from 1 to ${MAX_TIME_LIMIT_S}.`;
      },
    );
    const roots = exportDirs.length > 0 ? await commandLineRoots(exportDirs, log) : undefined;
    try {
      return createSqliteApp({
        database,
        write,
        ...(cli.common.readOnly ? { readOnly: true } : {}),
        log,
        ...(roots ? { roots } : {}),
        ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
        ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
        ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
      });
    } catch (error) {
      // A database that cannot be opened is the command line's fault: say so and exit 2.
      throw new UsageError(errorMessage(error));
    }
  },
};
