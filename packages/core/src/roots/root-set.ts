/**
 * The allowed set of directories, and the one place that turns a user-supplied path into a real
 * path inside it (or a clear `UserError`).
 */
import { realpath } from 'node:fs/promises';
import os from 'node:os';
import { isWithin, pathFor } from './containment.js';
import { type DirectoryProbe, probeDirectory } from './directory-probe.js';
import { locate } from './locate.js';
import {
  danglingLinkError,
  linkLoopError,
  nameTooLongError,
  noRootsError,
  notDirectoryError,
  outsideError,
  permissionError,
  symlinkOutsideError,
} from './messages.js';
import { parsePathInput } from './path-input.js';
import { buildEntries, type Root, type RootCandidate, type RootEntry } from './root-entries.js';
import { escapeControlChars } from './sanitize.js';
import type { StallGuard, StallScope } from './stall-guard.js';
import { existingUnicodeForm } from './unicode.js';

export type { Root } from './root-entries.js';

/** What the caller is about to do; writes never go through a dangling symbolic link. */
export type ResolveMode = 'read' | 'write' | 'create-dir';

/** A user path resolved inside the set. */
export interface ResolvedPath {
  /** The real path to operate on (for a missing path: realpath of its deepest ancestor + tail). */
  readonly real: string;
  /** The root that contains `real`. */
  readonly root: Root;
  /** `real` relative to its root, prefixed with the root's name ("app/src/x.ts"); safe to show. */
  readonly display: string;
  /** Whether `real` exists on disk right now. */
  readonly exists: boolean;
}

/** Options for {@link RootSet.create}. */
export interface RootSetOptions {
  /** Home directory for `~` (in configured directories and in inputs). Defaults to `os.homedir()`. */
  home?: string;
  /** Deadline for realpaths on network and FUSE mounts, here and in {@link RootSet.narrow}. */
  stallGuard?: StallGuard;
  /** Hears one sentence for each directory that did not answer in time (for the server's log). */
  warn?: (sentence: string) => void;
}

/** Display text for a path that no root contains. */
export const OUTSIDE_DISPLAY = '<outside allowed directories>';

const PLATFORM = process.platform;

/**
 * The allowed directories: the CLI directories form the ceiling, client roots may only narrow it
 * (see {@link RootSet.narrow}). Immutable; narrowing returns a new set. Containment is by path
 * segments and on realpaths, so neither `allowed_evil` nor a symlink leads out.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const roots = await RootSet.create(['~/src/app']);
 * const target = await roots.resolve('src/index.ts');         // relative to the first root
 * await readFile(target.real, 'utf8');
 * await roots.resolve('/etc/passwd');                          // throws UserError "Access denied: …"
 * ```
 */
export class RootSet {
  readonly #entries: readonly RootEntry[];
  readonly #settings: RootSetOptions;

  private constructor(entries: readonly RootEntry[], settings: RootSetOptions) {
    this.#entries = entries;
    this.#settings = settings;
  }

  /**
   * Builds the ceiling from configured directories (start-up config, so it fails closed): each must
   * exist and be a directory, or this throws an `Error` naming the bad argument. `~` and `~/…` are
   * expanded because host config files do not go through a shell. With a stall guard, a stalled
   * mount's directory is served as given, with a warning.
   */
  static async create(dirs: readonly string[], opts: RootSetOptions = {}): Promise<RootSet> {
    const home = opts.home ?? os.homedir();
    const given = dirs.map((dir, index) => {
      const label = `Allowed directory argument ${index + 1} (${JSON.stringify(dir)})`;
      const absolute = RootSet.configuredPath(dir, home);
      if (absolute === undefined) throw new Error(`${label} is empty or has control characters.`);
      return { label, absolute };
    });
    // All at once: with several directories on stalled mounts the start waits one deadline, not one each.
    const found = await Promise.all(given.map(({ absolute }) => RootSet.probe(absolute, opts.stallGuard)));
    const candidates: RootCandidate[] = [];
    for (const [index, { label, absolute }] of given.entries()) {
      const probe = found[index] ?? { not: 'missing' };
      if ('real' in probe) {
        candidates.push({ real: probe.real, aliases: [absolute] });
        continue;
      }
      if (probe.not === 'missing') throw new Error(`${label} does not exist or cannot be accessed.`);
      if (probe.not === 'file') throw new Error(`${label} is not a directory.`);
      // Not answering: the path as given is the best guess (on most mounts it is the real path too).
      candidates.push({ real: absolute, aliases: [] });
      opts.warn?.(
        `${label} did not answer within ${(opts.stallGuard?.timeoutMs ?? 0) / 1000} s, so its network or FUSE mount may be stalled; it is served as given, and calls on it work once the mount answers.`,
      );
    }
    return new RootSet(buildEntries(candidates, PLATFORM), { ...opts, home });
  }

  /**
   * The absolute path a directory the operator typed names (arguments and options alike): `~` and
   * `~/…` expanded, NFC; `undefined` when empty or with control characters.
   */
  static configuredPath(dir: string, home: string = os.homedir()): string | undefined {
    if (dir.length === 0 || /[\u0000-\u001f]/.test(dir)) return undefined;
    const p = pathFor(PLATFORM);
    const expanded =
      dir === '~' || dir.startsWith('~/') || (PLATFORM === 'win32' && dir.startsWith('~\\'))
        ? p.join(home, dir.slice(1))
        : dir;
    return p.resolve(expanded.normalize('NFC'));
  }

  /**
   * The realpath of the absolute directory `path`, under `guard`'s deadline on a network or FUSE
   * mount, or why not (see {@link DirectoryProbe}).
   */
  static probe(path: string, guard?: StallGuard): Promise<DirectoryProbe> {
    return probeDirectory(path, guard);
  }

  /** The guard this set's realpaths run under, if it was given one. */
  get stallGuard(): StallGuard | undefined {
    return this.#settings.stallGuard;
  }

  /** The roots, in configured (or client) order; the first one anchors relative paths. */
  get roots(): readonly Root[] {
    return this.#entries.map((entry) => entry.root);
  }

  /** True when nothing is allowed: every resolve is denied. */
  get isEmpty(): boolean {
    return this.#entries.length === 0;
  }

  /** The root whose directory holds `realPath` (compared by segments; case-insensitive on win32). */
  contains(realPath: string): Root | undefined {
    return this.#entries.find((entry) => isWithin(entry.root.path, realPath, PLATFORM))?.root;
  }

  /** True when both sets allow exactly the same directories, in the same order. */
  sameAs(other: RootSet): boolean {
    const mine = this.roots;
    const theirs = other.roots;
    return mine.length === theirs.length && mine.every((root, i) => root.path === theirs[i]?.path);
  }

  /**
   * The display form of a contained real path ("app/src/x.ts"), or {@link OUTSIDE_DISPLAY}. Control
   * characters in names on disk are escaped so they cannot reshape a message.
   */
  display(realPath: string): string {
    const root = this.contains(realPath);
    if (!root) return OUTSIDE_DISPLAY;
    const p = pathFor(PLATFORM);
    const rel = p.relative(root.path, realPath);
    return escapeControlChars(rel === '' ? root.name : `${root.name}/${rel.split(p.sep).join('/')}`);
  }

  /**
   * Validates `input` and resolves it to a real path inside the set, or throws a `UserError`.
   * Order: string checks, lexical containment (cheap reject), then the realpath of the target, or
   * for a missing target of its deepest existing ancestor, checked again (symlink escape). In
   * `write` and `create-dir` modes a dangling symbolic link anywhere on the path is refused, so
   * nothing is ever created through a planted link. With `scope`, a path on a network or FUSE
   * mount is put under the call's stall guard before anything touches it.
   */
  async resolve(input: string, opts: { mode?: ResolveMode; scope?: StallScope } = {}): Promise<ResolvedPath> {
    const first = this.#entries[0];
    if (!first) throw noRootsError();
    const mode = opts.mode ?? 'read';
    const p = pathFor(PLATFORM);
    const absolute = parsePathInput(input, {
      base: first.root.path,
      home: this.#settings.home,
      platform: PLATFORM,
    });

    const anchor = this.#lexicalAnchor(absolute);
    if (anchor === undefined) throw outsideError(input);
    // Before the first file system call: on a slow mount, the deadline covers resolving too.
    if (opts.scope) await this.#enter(opts.scope, anchor, absolute);
    const target = await existingUnicodeForm(anchor, p.relative(anchor, absolute), p);

    const located = await locate(target, p);
    // A failure past a link that leads out must read like any other such refusal: "not a
    // directory" or "permission denied" would tell what exists outside the roots.
    if (!('real' in located) && !(await this.#failsInside(target, p))) throw symlinkOutsideError(input);
    switch (located.kind) {
      case 'not-directory':
        throw notDirectoryError(input);
      case 'loop':
        throw linkLoopError(input);
      case 'permission':
        throw permissionError(input);
      case 'too-long':
        throw nameTooLongError(input);
      case 'dangling':
        if (mode !== 'read') throw danglingLinkError(input);
        break;
      default:
        break;
    }
    const root = this.contains(located.real);
    if (!root) throw symlinkOutsideError(input);
    // A link may lead from a local directory onto a slow mount.
    await opts.scope?.enter(located.real, this.display(located.real));
    return {
      real: located.real,
      root,
      display: this.display(located.real),
      exists: located.kind === 'found',
    };
  }

  /**
   * The set allowed by client roots (already converted from `file://` URIs): client roots can only
   * narrow. Each is realpath'd (missing ones and non-directories are skipped); one inside a ceiling
   * root is kept, one that contains ceiling roots narrows to those ceiling roots, one outside is
   * dropped. An empty list yields an EMPTY set: a client that shares no roots has revoked access,
   * and falling back to the ceiling would widen what the user chose. With a stall guard, a client
   * root that does not answer in time is left out with a warning; the next roots change asks again.
   */
  async narrow(clientRootPaths: readonly string[]): Promise<RootSet> {
    const p = pathFor(PLATFORM);
    const { stallGuard, warn } = this.#settings;
    // All at once, so stalled client roots cost one deadline however many there are.
    const found = await Promise.all(clientRootPaths.map((path) => RootSet.probe(path, stallGuard)));
    const kept: RootCandidate[] = [];
    for (const [index, clientPath] of clientRootPaths.entries()) {
      const probe = found[index] ?? { not: 'missing' };
      // One warning per stall: a root still waited on from an earlier answer is left out quietly.
      if ('not' in probe && probe.not === 'stalled')
        warn?.(
          `Client root ${JSON.stringify(clientPath)} did not answer within ${(stallGuard?.timeoutMs ?? 0) / 1000} s, so its network or FUSE mount may be stalled; it is left out until the client's roots change.`,
        );
      if (!('real' in probe)) continue;
      const real = probe.real;
      const ceiling = this.#entries.find((entry) => isWithin(entry.root.path, real, PLATFORM));
      if (ceiling) {
        kept.push({ real, aliases: [p.resolve(clientPath)] });
        continue;
      }
      for (const entry of this.#entries) {
        if (isWithin(real, entry.root.path, PLATFORM))
          kept.push({ real: entry.root.path, aliases: entry.aliases });
      }
    }
    return new RootSet(buildEntries(kept, PLATFORM), this.#settings);
  }

  // True when the deepest ancestor of `target` that still resolves lies inside the set.
  async #failsInside(target: string, p: ReturnType<typeof pathFor>): Promise<boolean> {
    for (let current = p.dirname(target); ; current = p.dirname(current)) {
      try {
        return this.contains(await realpath(current)) !== undefined;
      } catch {
        if (p.dirname(current) === current) return false;
      }
    }
  }

  /**
   * Puts the path `input` names under a call's stall guard before anything touches it (see
   * `stall-guard.ts`), for a caller that reaches the file system before {@link resolve} does.
   */
  async enterGuard(input: string, scope: StallScope | undefined): Promise<void> {
    const first = this.#entries[0];
    if (!scope || !first) return;
    let absolute: string;
    try {
      absolute = parsePathInput(input, {
        base: first.root.path,
        home: this.#settings.home,
        platform: PLATFORM,
      });
    } catch {
      return; // resolve explains a bad input
    }
    const anchor = this.#lexicalAnchor(absolute);
    if (anchor !== undefined) await this.#enter(scope, anchor, absolute);
  }

  // Judged by the real root the path is under: a root configured through a link onto a network
  // mount is slow although the path as typed is not.
  async #enter(scope: StallScope, anchor: string, absolute: string): Promise<void> {
    const p = pathFor(PLATFORM);
    const entry = this.#entries.find((e) => e.root.path === anchor || e.aliases.includes(anchor));
    const mapped = entry ? p.join(entry.root.path, p.relative(anchor, absolute)) : absolute;
    await scope.enter(mapped, this.display(mapped));
  }

  // The root or alias that lexically holds `absolute`, as the directory to resolve from.
  #lexicalAnchor(absolute: string): string | undefined {
    for (const entry of this.#entries) {
      for (const dir of [entry.root.path, ...entry.aliases]) {
        if (isWithin(dir, absolute, PLATFORM)) return dir;
      }
    }
    return undefined;
  }
}
