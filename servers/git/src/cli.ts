/**
 * The git server as a program: its command line, the settings a bundle asks for, and how a
 * parsed command line becomes the app. `bin.ts` runs it; the build tool reads it to write the
 * bundle manifest, server.json and the README's install examples.
 */
import { commandLineRoots, type ServerBin, UsageError } from '@mcpkit/core/runner';
import { createGitApp, NAME, PACKAGE_JSON } from './server.js';

export const cli: ServerBin = {
  bin: NAME,
  packageJson: PACKAGE_JSON,
  title: 'Git (mcpkit)',
  usage: '[options] [--repository <repo>]... [<directory>...]',
  positionals: {
    name: 'directory',
    description: 'A repository, or a folder of repositories, the server may use (repeatable).',
    required: false,
    repeated: true,
  },
  exampleArgs: ['/Users/you/src/app'],
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
  settings: {
    repository: {
      title: 'Repository',
      description:
        'The repository the tools work on, or a folder of repositories (each call then names one).',
      type: 'directory',
      required: true,
      fills: 'positionals',
    },
    read_only: {
      title: 'Read-only',
      description: 'Offer only the tools that change nothing: no commits, staging, branches or tags.',
      type: 'boolean',
      default: false,
      fills: { flag: 'read-only' },
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
    const roots = await commandLineRoots(dirs, log);
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
};
