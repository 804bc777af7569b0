import { constants, type Dirent } from 'node:fs';
import { type FileHandle, open, readdir } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { GitignoreRules } from './gitignore-rules.js';

/** A .gitignore bigger than this is not a real one; it is skipped rather than parsed. */
const MAX_GITIGNORE_BYTES = 256 * 1024;

// O_NOFOLLOW: a .gitignore swapped for a symlink after the listing must not be read through.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

interface Layer {
  rules: GitignoreRules;
  /** Added in front of a walk-relative path to make it relative to this file's directory. */
  prefix: string;
  /** Characters cut from the front of a walk-relative path for the same purpose. */
  strip: number;
}

/**
 * The .gitignore files in force at one directory of a walk, shallowest first. Each file's rules
 * apply to paths relative to its own directory, and the deepest file with a rule that matches
 * (ignoring or re-including) decides, as in git. The `.git` directory itself is always skipped.
 * Immutable: a subdirectory with its own .gitignore gets a longer stack, siblings share one.
 */
export class GitignoreStack {
  static readonly EMPTY = new GitignoreStack([]);

  private constructor(private readonly layers: readonly Layer[]) {}

  /** True when git would ignore `relative` (a path from the walk root, `/`-separated). */
  ignores(relative: string, name: string, isDirectory: boolean): boolean {
    if (isDirectory && name === '.git') return true;
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i]!;
      const tail = relative.slice(layer.strip);
      // The walk root itself, seen from a directory above it, is its prefix (which ends in '/').
      const path = tail === '' ? layer.prefix : layer.prefix + tail + (isDirectory ? '/' : '');
      if (path === '') continue;
      const verdict = layer.rules.test(path);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }

  /**
   * The stack for a directory of the walk at `relative` ('' for the root), adding its .gitignore
   * when the listing has one (a regular file; a symlinked .gitignore is not followed).
   */
  async enter(dir: string, relative: string, entries: readonly Dirent[]): Promise<GitignoreStack> {
    if (!entries.some((e) => e.name === '.gitignore' && e.isFile())) return this;
    const rules = await readRules(`${dir}${sep}.gitignore`);
    if (!rules) return this;
    const layer = { rules, prefix: '', strip: relative === '' ? 0 : relative.length + 1 };
    return new GitignoreStack([...this.layers, layer]);
  }

  /**
   * The rules of the directories above `root`, up to the repository's top (the first one holding
   * `.git`) but never above `boundary` (the allowed directory: nothing outside it is read). When
   * those rules ignore `root` itself they are dropped: the caller asked for that directory by name.
   */
  static async above(root: string, boundary: string): Promise<GitignoreStack> {
    const layers: Layer[] = [];
    let dir = root;
    const inside = boundary.endsWith(sep) ? boundary : `${boundary}${sep}`;
    while (dir !== boundary && dir.startsWith(inside)) {
      dir = dirname(dir);
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
      const file = entries.some((e) => e.name === '.gitignore' && e.isFile());
      const rules = file ? await readRules(`${dir}${sep}.gitignore`) : undefined;
      if (rules) {
        const prefix = `${relative(dir, root).split(sep).join('/')}/`;
        layers.unshift({ rules, prefix, strip: 0 });
      }
      if (entries.some((e) => e.name === '.git')) break;
    }
    const stack = new GitignoreStack(layers);
    return stack.ignores('', '', true) ? GitignoreStack.EMPTY : stack;
  }
}

async function readRules(path: string): Promise<GitignoreRules | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, READ_FLAGS);
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_GITIGNORE_BYTES) return undefined;
    return new GitignoreRules(await handle.readFile('utf8'));
  } catch {
    // Unreadable or vanished: walk on as if it were not there.
    return undefined;
  } finally {
    await handle?.close();
  }
}
