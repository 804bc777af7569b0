/**
 * The filesystem server's test world, for the layers that run the built bin (end to end,
 * conformance, HTTP security, packaging, `npm start`, the bench): a small project directory.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTestWorld } from '@mcpkit/core/testing';

export const world = defineTestWorld({
  tools: ['read_text_file', 'write_file', 'list_directory', 'search_files'],
  async setup(dir) {
    const project = join(dir, 'project');
    await mkdir(join(project, 'docs'), { recursive: true });
    await writeFile(join(project, 'hello.txt'), 'hello from the filesystem server\n');
    await writeFile(join(project, 'docs', 'guide.md'), '# Guide\nHow to use it.\n');
    return {
      args: [project],
      roots: [project],
      bundleSettings: { directories: [project] },
      reads: [
        {
          tool: 'read_text_file',
          args: { path: join(project, 'hello.txt') },
          expect: 'hello from the filesystem',
        },
        {
          tool: 'read_text_file',
          args: { path: join(project, 'docs', 'guide.md') },
          expect: 'How to use it',
        },
      ],
    };
  },
  conformance: {
    '2026-07-28': {
      'caching:sep-2549-resources-read-caching-hints':
        'the first listed file is read with the roots the suite declares but never answers, so the read waits for them',
    },
  },
});
