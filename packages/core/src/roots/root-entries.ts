/**
 * Building the list of roots from candidate directories: duplicates merged, a root inside another
 * root dropped (the outer one already allows it), and each root given a short unique name for
 * messages.
 */
import { isWithin, pathFor } from './containment.js';

/** An allowed directory: its realpath and the short name used in messages. */
export interface Root {
  /** The realpath of the directory. Never shown to a model or user. */
  readonly path: string;
  /** Basename (or a short label), unique within the set; used as the prefix of display paths. */
  readonly name: string;
}

/** A root plus the absolute spellings that lead to it (for the cheap lexical pre-check). */
export interface RootEntry {
  readonly root: Root;
  /** Lexically normalised forms that also name this root, e.g. `/tmp/x` for `/private/tmp/x`. */
  readonly aliases: readonly string[];
}

/** One directory before merging: its realpath and how it was spelled. */
export interface RootCandidate {
  readonly real: string;
  readonly aliases: readonly string[];
}

/**
 * Merges candidates into entries, keeping first-seen order. When a root lies inside another, only
 * the outer one stays (at its own position).
 *
 * @example buildEntries([{ real: '/a', aliases: [] }, { real: '/a/b', aliases: [] }], 'linux') // one entry, /a
 */
export function buildEntries(candidates: readonly RootCandidate[], platform: NodeJS.Platform): RootEntry[] {
  const merged: { real: string; aliases: Set<string> }[] = [];
  for (const candidate of candidates) {
    const same = merged.find((m) => sameDir(m.real, candidate.real, platform));
    if (same) {
      for (const alias of candidate.aliases) same.aliases.add(alias);
    } else {
      merged.push({ real: candidate.real, aliases: new Set(candidate.aliases) });
    }
  }
  const outermost = merged.filter(
    (m) => !merged.some((other) => other !== m && isWithin(other.real, m.real, platform)),
  );
  const names = uniqueNames(
    outermost.map((m) => m.real),
    platform,
  );
  return outermost.map((m, i) => ({
    root: { path: m.real, name: names[i] ?? 'root' },
    aliases: [...m.aliases].filter((alias) => !sameDir(alias, m.real, platform)),
  }));
}

function sameDir(a: string, b: string, platform: NodeJS.Platform): boolean {
  return isWithin(a, b, platform) && isWithin(b, a, platform);
}

function uniqueNames(paths: readonly string[], platform: NodeJS.Platform): string[] {
  const p = pathFor(platform);
  const used = new Set<string>();
  return paths.map((dir) => {
    const base = p.basename(dir) || p.parse(dir).root.replace(/[\\/:]+/g, '') || 'root';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}
