/**
 * The notes server's test world, for the layers that run the built bin (end to end, conformance,
 * HTTP security, packaging, `npm start`, the bench): two notes in a directory of their own.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTestWorld } from '@mcpkit/core/testing';

export const world = defineTestWorld({
  tools: ['list_notes', 'read_note', 'search_notes', 'write_note'],
  async setup(dir) {
    const notes = join(dir, 'notes');
    await mkdir(notes);
    await writeFile(join(notes, 'alpha.md'), '# Alpha\nThe first note mentions apples.\n');
    await writeFile(join(notes, 'beta.md'), '# Beta\nBananas from the beta note.\n');
    const read = (name: string, expect: string) => ({ tool: 'read_note', args: { name }, expect });
    return {
      args: [notes],
      roots: [notes],
      bundleSettings: { notes_directory: notes },
      reads: [read('alpha', 'apples'), read('beta', 'Bananas')],
    };
  },
  conformance: {
    '2026-07-28': {
      'caching:sep-2549-resources-read-caching-hints':
        'the first listed note is read with the roots the suite declares but never answers, so the read waits for them',
    },
  },
});
