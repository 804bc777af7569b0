#!/usr/bin/env node
import { errorMessage } from '@mcpkit/core/errors';
import { RootSet } from '@mcpkit/core/roots';
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createExampleApp } from './server.js';

await runServer({
  bin: 'mcpkit-example',
  packageJson: new URL('../package.json', import.meta.url),
  usage: '[options] <notes-directory>',
  options: {
    'conformance-fixtures': {
      type: 'boolean',
      description: "also serve the conformance suite's test_* fixtures (for testing only)",
    },
  },
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
      conformanceFixtures: cli.values['conformance-fixtures'] === true,
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
});
