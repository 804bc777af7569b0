/** A small server's description for the release tests: what a built package's dist/cli.js gives. */
import type { ServerDescription } from '../src/release/description.js';

const envName = (flag: string) => `MCPKIT_${flag.replace(/-/g, '_').toUpperCase()}`;

/** A small server: folders as positionals, a switch, an optional text and a number by variable. */
export function fixture(overrides: Partial<ServerDescription> = {}): ServerDescription {
  return {
    dir: '/nowhere',
    pkg: {
      name: '@acme/server-notes',
      version: '1.2.3',
      description: 'Notes for agents.',
      mcpName: 'io.github.acme/notes',
      license: 'MIT',
      homepage: 'https://github.com/acme/tools/tree/main/servers/notes#readme',
      keywords: ['mcp'],
      repository: { type: 'git', url: 'git+https://github.com/acme/tools.git', directory: 'servers/notes' },
      bugs: { url: 'https://github.com/acme/tools/issues' },
      engines: { node: '>=20.19' },
      bin: { 'acme-notes': './dist/bin.js' },
    },
    cli: {
      bin: 'acme-notes',
      title: 'Notes (acme)',
      usage: '[options] <dir>...',
      positionals: { name: 'dir', description: 'a notes folder', required: true, repeated: true },
      options: {
        label: { type: 'string', description: 'the label shown on notes', valueName: 'text' },
        limit: { type: 'string', description: 'notes per page', valueName: 'n' },
        tags: { type: 'string', multiple: true, description: 'a tag to show (repeatable)', valueName: 'tag' },
      },
      settings: {
        folders: {
          title: 'Folders',
          description: 'Notes folders.',
          type: 'directory',
          multiple: true,
          required: true,
          fills: 'positionals',
        },
        read_only: {
          title: 'Read-only',
          description: 'Change nothing.',
          type: 'boolean',
          fills: { flag: 'read-only' },
        },
        label: { title: 'Label', description: 'Shown on notes.', type: 'string', fills: { flag: 'label' } },
        limit: {
          title: 'Page size',
          description: 'Notes per page.',
          type: 'number',
          default: 20,
          min: 1,
          max: 100,
          fills: { flag: 'limit' },
        },
      },
    },
    tools: [
      { name: 'read_note', title: 'Read a note', description: 'Reads one note.' },
      { name: 'write_note', title: 'Write a note', description: 'Writes one note.' },
    ],
    prompts: [
      {
        name: 'summarize',
        title: 'Summarize',
        description: 'Summarizes a note.',
        args: { shape: { name: {}, style: {} } },
      },
    ],
    envName,
    commonOptions: { 'read-only': { type: 'boolean', description: 'offer only tools that change nothing' } },
    ...overrides,
  };
}
