/**
 * The notes server as a program: its command line, the settings a bundle asks for, and how a
 * parsed command line becomes the app. `bin.ts` runs it; the build tool reads it to write the
 * bundle manifest, server.json and the README's install examples (`mcpkit-bundle release`,
 * `mcpkit-bundle readme`), so importing this file must start nothing.
 */
import { commandLineRoots, type ServerBin, UsageError } from '@mcpkit/core/runner';
import { createExampleApp, NAME, PACKAGE_JSON } from './server.js';

export const cli: ServerBin = {
  bin: NAME,
  packageJson: PACKAGE_JSON,
  title: 'Notes example (mcpkit)',
  usage: '[options] <notes-directory>',
  positionals: {
    name: 'notes-directory',
    description: 'The directory of Markdown notes the server reads and writes.',
    required: true,
    repeated: false,
  },
  exampleArgs: ['/Users/you/notes'],
  settings: {
    notes_directory: {
      title: 'Notes directory',
      description: 'The folder of Markdown notes the server reads and, unless read-only, writes.',
      type: 'directory',
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
  },
  async create(cli, log) {
    const [dir, ...rest] = cli.positionals;
    if (!dir || rest.length > 0) throw new UsageError('Give exactly one notes directory.');
    const roots = await commandLineRoots([dir], log);
    return createExampleApp({
      roots,
      log,
      readOnly: cli.common.readOnly,
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
};
