/**
 * The layout every attack test shares, so each proves the same three things: no marker appeared
 * (no program of the repository ran), nothing under `outside/` changed (SHA-256 of every file), and
 * no file an injected value names was created. `base/repos` is the only allowed directory;
 * `base/outside` holds a secret and the targets of redirections; `base/markers` gets the markers.
 */
import { createHash, randomUUID } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { openRepository, type RepositoryCache } from '../src/git/open-repository.js';
import type { Repository } from '../src/git/repository.js';
import { markersIn } from './hostile-repo.js';

export interface AttackFixture {
  readonly base: string;
  /** The allowed directory. */
  readonly repos: string;
  readonly outside: string;
  readonly markerDir: string;
  readonly roots: RootSet;
  /** A fresh cache (no allowed keys unless given), as the server keeps one. */
  cache(allowedKeys?: readonly string[]): RepositoryCache;
  /** `openRepository` on `path` with the fixture's roots and a fresh cache. */
  open(path: string, allowedKeys?: readonly string[]): Promise<Repository>;
  markers(): Promise<string[]>;
  /** SHA-256 of every file (and link target) under `outside/`, by relative path. */
  outsideState(): Promise<Map<string, string>>;
  /** Paths an injected value may name: under the temporary folder and `outside/`, unique to this fixture. */
  readonly targets: { readonly tmp: string; readonly outside: string };
  /** The targets that exist now (must stay empty). */
  createdTargets(): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** Builds `base/{repos,outside,markers}` with a secret in `outside/`. */
export async function attackFixture(): Promise<AttackFixture> {
  const base = await mkdtemp(join(tmpdir(), 'mcpkit-git-attack-'));
  const repos = join(base, 'repos');
  const outside = join(base, 'outside');
  const markerDir = join(base, 'markers');
  await Promise.all([repos, outside, markerDir].map((d) => mkdir(d, { recursive: true })));
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  const roots = await RootSet.create([repos]);
  const targets = { tmp: join(tmpdir(), `mcpkit-pwn-${randomUUID()}`), outside: join(outside, 'pwned') };
  const cache = (allowedKeys: readonly string[] = []): RepositoryCache => ({
    globalConfig: async () => '/dev/null',
    allowedKeys: new Set(allowedKeys.map((k) => k.toLowerCase())),
    facts: new Map(),
  });
  /** Every file or folder whose name starts with one of the targets. */
  async function createdTargets(): Promise<string[]> {
    const found: string[] = [];
    for (const prefix of Object.values(targets)) {
      const dir = join(prefix, '..');
      const name = prefix.slice(dir.length + 1);
      for (const entry of await readdir(dir).catch(() => [] as string[])) {
        if (entry.startsWith(name)) found.push(join(dir, entry));
      }
    }
    return found;
  }
  return {
    base,
    repos,
    outside,
    markerDir,
    roots,
    targets,
    cache,
    open: (path, allowedKeys) => openRepository(path, roots, cache(allowedKeys)),
    markers: () => markersIn(markerDir),
    outsideState: () => fingerprint(outside),
    createdTargets,
    async cleanup() {
      await rm(base, { recursive: true, force: true });
      for (const path of await createdTargets()) await rm(path, { recursive: true, force: true });
    },
  };
}

/**
 * SHA-256 of each file under `dir` (a link records its target; a FIFO, socket or device only that
 * it is one, since reading it could wait forever), keyed by path relative to `dir`.
 */
export async function fingerprint(dir: string, prefix = ''): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(join(dir, prefix)).catch(() => [] as string[])) {
    const rel = prefix ? join(prefix, entry) : entry;
    const path = join(dir, rel);
    const info = await lstat(path);
    if (info.isSymbolicLink()) found.set(rel, `link:${await readlink(path)}`);
    else if (info.isDirectory()) for (const [k, v] of await fingerprint(dir, rel)) found.set(k, v);
    else if (!info.isFile()) found.set(rel, 'special');
    else
      found.set(
        rel,
        createHash('sha256')
          .update(await readFile(path))
          .digest('hex'),
      );
  }
  return found;
}

/**
 * The values every string a client sends must survive (SECURITY.md Git 2): options that write a
 * file or run a program, control characters, a huge value, pathspec magic and parent paths. Each
 * names only the fixture's own targets, so a success would be seen and cleaned up.
 */
export function injectionValues(targets: AttackFixture['targets']): ReadonlyArray<readonly [string, string]> {
  return [
    ['--output', `--output=${targets.tmp}-output`],
    ['--output outside', `--output=${targets.outside}-output`],
    ['-c pager', `-c core.pager=touch ${targets.tmp}-pager`],
    ['--config', `--config=core.fsmonitor=touch ${targets.tmp}-fsmonitor`],
    ['--upload-pack', `--upload-pack=touch ${targets.tmp}-uploadpack; git-upload-pack`],
    ['--exec', `--exec=touch ${targets.tmp}-exec`],
    ['--open-files-in-pager', `--open-files-in-pager=touch ${targets.tmp}-grep`],
    ['--template', `--template=${targets.outside}-template`],
    ['-F file', '-F/etc/passwd'],
    ['--no-index', '--no-index'],
    ['-D', '-D'],
    ['--orphan', '--orphan=x'],
    ['HEAD --', 'HEAD --'],
    ['NUL', 'main\u0000--output=x'],
    ['newline', 'main\n--output=x'],
    ['carriage return', 'main\r'],
    ['escape', 'main\u001b[2J'],
    ['2000 chars', 'a'.repeat(2000)],
    ['pathspec magic', ':(top)../x'],
    ['parent path', '../..'],
    ['absolute outside', join(targets.outside, '..', 'secret.txt')],
  ];
}

/** A refusal's message with the quoted input (which may name a path the caller gave) taken out. */
export const withoutQuotedInput = (message: string) => message.replace(/"[\s\S]*"/, '"<input>"');
