import type { ExtraOption } from '../src/runner/cli.js';

/** The flags of a server like the filesystem one, plus a repeatable one and one with a default. */
export const SERVER: Record<string, ExtraOption> = {
  'allow-sensitive': { type: 'boolean', description: 'allow files that usually hold secrets' },
  'max-media-bytes': { type: 'string', description: 'largest media file', valueName: 'n' },
  repository: { type: 'string', multiple: true, description: 'a repository (repeatable)', valueName: 'dir' },
  db: { type: 'string', description: 'the database file', valueName: 'file' },
  mode: { type: 'string', default: 'plain', description: 'how to answer', valueName: 'mode' },
};
