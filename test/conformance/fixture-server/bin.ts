#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. Everything the server is lives in server.ts.
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createFixtureApp, NAME, PACKAGE_JSON } from './server.js';

await runServer({
  bin: NAME,
  packageJson: PACKAGE_JSON,
  usage: '[options]',
  create(cli, log) {
    if (cli.positionals.length > 0) throw new UsageError('This server takes no arguments besides options.');
    return createFixtureApp({
      log,
      readOnly: cli.common.readOnly,
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
});
