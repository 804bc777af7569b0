#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. Everything the server is lives in server.ts.
import { errorMessage } from '@mcpkit/core/errors';
import { RootSet } from '@mcpkit/core/roots';
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createGitApp, NAME, PACKAGE_JSON } from './server.js';

await runServer({
  bin: NAME,
  packageJson: PACKAGE_JSON,
  usage: '[options] [--repository <repo>]... [<directory>...]',
  options: {
    repository: {
      type: 'string',
      multiple: true,
      short: 'r',
      description: 'a repository the server may use; the first is the default repo_path (repeatable)',
      valueName: 'path',
    },
    'allow-config-key': {
      type: 'string',
      multiple: true,
      description: 'a repository configuration key that runs a program, allowed anyway (repeatable)',
      valueName: 'key',
    },
  },
  async create(cli, log) {
    const repositories = (cli.values.repository as string[] | undefined) ?? [];
    const dirs = [...repositories, ...cli.positionals];
    if (dirs.length === 0) {
      throw new UsageError(
        'Give at least one repository or folder of repositories, e.g. mcpkit-git --repository ~/src/app.',
      );
    }
    const roots = await RootSet.create(dirs).catch((error: unknown) => {
      throw new UsageError(errorMessage(error));
    });
    const only = dirs.length === 1 ? dirs[0] : undefined;
    const defaultRepository = repositories[0] ?? only;
    return createGitApp({
      roots,
      log,
      readOnly: cli.common.readOnly,
      ...(defaultRepository ? { defaultRepository } : {}),
      allowConfigKeys: (cli.values['allow-config-key'] as string[] | undefined) ?? [],
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
});
