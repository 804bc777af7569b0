#!/usr/bin/env node
import { errorMessage } from '@mcpkit/core/errors';
import { RootSet } from '@mcpkit/core/roots';
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createFilesystemApp, NAME, PACKAGE_JSON } from './server.js';

await runServer({
  bin: NAME,
  packageJson: PACKAGE_JSON,
  usage: '[options] <directory>...',
  options: {
    'allow-sensitive': {
      type: 'boolean',
      description: 'allow files that usually hold secrets (.env, keys, .ssh/…)',
    },
    'confirm-overwrite': {
      type: 'boolean',
      description: 'ask the user before write_file replaces an existing file',
    },
    'max-media-bytes': {
      type: 'string',
      description: 'largest file read_media_file returns (default 5242880)',
      valueName: 'n',
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
    const maxMediaBytes = typeof media === 'string' ? Number(media) : undefined;
    if (maxMediaBytes !== undefined && (!Number.isInteger(maxMediaBytes) || maxMediaBytes < 1)) {
      throw new UsageError('--max-media-bytes must be a whole number of bytes.');
    }
    return createFilesystemApp({
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
});
