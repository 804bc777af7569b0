import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import type { RootSet } from '@mcpkit/core/roots';

/** A note is a Markdown file directly in the notes directory: `<name>.md`. */
export interface NoteInfo {
  name: string;
  bytes: number;
  modified: string;
}

const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_ .-]{0,99}$/u;

/** Checks a note name: letters, digits, `_ .-`, no path separators, no leading dot. */
export function checkName(name: string): string {
  const bare = name.endsWith('.md') ? name.slice(0, -3) : name;
  if (!NAME.test(bare) || bare.endsWith('.') || bare.endsWith(' ')) {
    throw new UserError(
      `"${bare.slice(0, 100)}" is not a valid note name; use letters, digits, spaces, "_", "-" and ".", up to 100 characters.`,
    );
  }
  return bare;
}

/**
 * Notes kept as files in the first allowed directory. Every path goes through the roots guard,
 * so a note name can never reach outside it, even through a planted symlink.
 */
export class NoteStore {
  constructor(private readonly roots: RootSet) {}

  private get dir(): string {
    const first = this.roots.roots[0];
    if (!first) throw new UserError('No notes directory is allowed right now; ask the user to share one.');
    return first.path;
  }

  /** Every note, sorted by name. */
  async list(): Promise<NoteInfo[]> {
    const entries = await readdir(this.dir, { withFileTypes: true });
    const notes = await Promise.all(
      entries
        .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.'))
        .map(async (e) => {
          const s = await stat(join(this.dir, e.name));
          return { name: e.name.slice(0, -3), bytes: s.size, modified: s.mtime.toISOString() };
        }),
    );
    return notes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The real path of a note, checked against the roots. */
  async path(name: string, mode: 'read' | 'write' = 'read'): Promise<{ real: string; exists: boolean }> {
    const resolved = await this.roots.resolve(join(this.dir, `${checkName(name)}.md`), { mode });
    return { real: resolved.real, exists: resolved.exists };
  }

  async read(name: string): Promise<string> {
    const { real, exists } = await this.path(name);
    if (!exists)
      throw new UserError(`There is no note "${checkName(name)}"; call list_notes to see the notes.`);
    return readFile(real, 'utf8');
  }

  async exists(name: string): Promise<boolean> {
    return (await this.path(name, 'write')).exists;
  }

  /** Writes atomically: a temporary file with a random name beside the note, then a rename. */
  async write(name: string, text: string): Promise<void> {
    const { real } = await this.path(name, 'write');
    const temp = `${real}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, real);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    const { real, exists } = await this.path(name);
    if (!exists) throw new UserError(`There is no note "${checkName(name)}"; nothing was deleted.`);
    await rm(real);
  }
}
