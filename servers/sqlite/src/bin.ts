#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. Everything the server is lives in server.ts.
import { errorMessage } from '@mcpkit/core/errors';
import { RootSet } from '@mcpkit/core/roots';
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createSqliteApp, NAME, PACKAGE_JSON } from './server.js';

await runServer({
  bin: NAME,
  packageJson: PACKAGE_JSON,
  usage: '--db <file> [--write] [--export-dir <dir>]...',
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
    if (write && cli.common.readOnly) throw new UsageError('Give --write or --read-only, not both.');
    const exportDirs = (cli.values['export-dir'] as string[] | undefined) ?? [];
    const roots =
      exportDirs.length > 0
        ? await RootSet.create(exportDirs).catch((error: unknown) => {
            throw new UsageError(errorMessage(error));
          })
        : undefined;
    try {
      return createSqliteApp({
        database,
        write,
        log,
        ...(roots ? { roots } : {}),
        ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
        ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
      });
    } catch (error) {
      // A database that cannot be opened is the command line's fault: say so and exit 2.
      throw new UsageError(errorMessage(error));
    }
  },
});
