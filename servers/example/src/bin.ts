#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. Everything the server is lives in server.ts.
import { errorMessage } from '@mcpkit/core/errors';
import { RootSet } from '@mcpkit/core/roots';
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createExampleApp, NAME, PACKAGE_JSON } from './server.js';

await runServer({
  bin: NAME,
  packageJson: PACKAGE_JSON,
  usage: '[options] <notes-directory>',
  async create(cli, log) {
    const [dir, ...rest] = cli.positionals;
    if (!dir || rest.length > 0) throw new UsageError('Give exactly one notes directory.');
    const roots = await RootSet.create([dir]).catch((error: unknown) => {
      throw new UsageError(errorMessage(error));
    });
    return createExampleApp({
      roots,
      log,
      readOnly: cli.common.readOnly,
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
});
