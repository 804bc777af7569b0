/**
 * The one piece of the user's own git configuration the server uses: who they are (and a few
 * keys that only shape text). Their global file can name programs too (a pager, a credential
 * helper, an `includeIf` of anything), so it is never read by the git processes the server
 * starts: those get this vetted copy instead, written once to a private temporary file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@mcpkit/core/progress';

/** The keys copied from the user's global configuration: identity and text shaping only. */
const COPIED = new Set([
  'user.name',
  'user.email',
  'core.autocrlf',
  'core.safecrlf',
  'core.quotepath',
  'core.precomposeunicode',
  'init.defaultbranch',
  'i18n.commitencoding',
  'i18n.logoutputencoding',
]);

/** A configuration file with the copied keys, and the temporary folder to remove at the end. */
export interface VettedConfig {
  readonly path: string;
  close(): Promise<void>;
}

/** `git config --global --list -z` output → the copied keys, last value wins, as git does. */
function vettedEntries(listing: string): Map<string, string> {
  const kept = new Map<string, string>();
  for (const record of listing.split('\0')) {
    const newline = record.indexOf('\n');
    if (newline < 0) continue;
    const key = record.slice(0, newline).toLowerCase();
    const value = record.slice(newline + 1);
    if (COPIED.has(key) && !/[\n\r\0]/.test(value)) kept.set(key, value);
  }
  return kept;
}

/** The entries in git's configuration syntax, each value quoted and escaped. */
function configText(entries: ReadonlyMap<string, string>): string {
  const sections = new Map<string, string[]>();
  for (const [key, value] of entries) {
    const dot = key.lastIndexOf('.');
    const section = key.slice(0, dot);
    const quoted = `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    sections.set(section, [...(sections.get(section) ?? []), `\t${key.slice(dot + 1)} = ${quoted}`]);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join('');
}

/**
 * Reads the user's global configuration (reading never runs a program) and writes the vetted copy.
 * Without a global configuration, or without git's permission to read it, the copy is empty.
 */
export async function writeVettedConfig(): Promise<VettedConfig> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '' };
  if (process.env.XDG_CONFIG_HOME) env.XDG_CONFIG_HOME = process.env.XDG_CONFIG_HOME;
  if (process.env.GIT_CONFIG_GLOBAL) env.GIT_CONFIG_GLOBAL = process.env.GIT_CONFIG_GLOBAL;
  const listed = await runProcess('git', ['config', '--global', '--list', '-z'], {
    env,
    timeoutMs: 5_000,
  }).catch(() => undefined);
  const entries = listed?.code === 0 ? vettedEntries(listed.stdout) : new Map<string, string>();
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-git-'));
  const path = join(dir, 'config');
  await writeFile(path, configText(entries), { mode: 0o600 });
  return { path, close: () => rm(dir, { recursive: true, force: true }) };
}
