/**
 * The hardened way to start git on a repository nobody vetted: what its own configuration, hooks
 * and attributes could make git run is switched off on every command, so no program from the
 * repository ever runs. Measured on git 2.39 with a hostile `.git/config` and hooks (see the
 * attack tests): each entry below stopped one way in.
 */

/** The home folder every git process is given (see {@link hardenedEnv}). */
export function userHome(): string {
  return process.env.HOME ?? '';
}

/**
 * The user's own attributes and ignore files, pinned to the place git looks when no configuration
 * names one (no XDG_CONFIG_HOME reaches git: `$HOME/.config/git/…`). A repository's configuration
 * could name any file on the host instead: status, diff, show, add and blame open it, and a FIFO
 * there hangs them (a device like /dev/zero never ends). What this costs: a file the repository's
 * own configuration names for these keys is not read (the user's global configuration was never
 * read for them, see `user-config.ts`); the user's files at git's default place still are.
 */
function userFiles(): string[] {
  const home = userHome();
  const at = (name: string) => (home ? `${home}/.config/git/${name}` : '/dev/null');
  return [`core.attributesFile=${at('attributes')}`, `core.excludesFile=${at('ignore')}`];
}

/** `-c key=value` pairs passed on every command. A `-c` beats every configuration file. */
export const HARDENED_CONFIG: readonly string[] = [
  'core.fsmonitor=false', // a program run by status, diff, add, commit, checkout, blame
  'core.hooksPath=/dev/null', // every hook: pre-commit, post-checkout, reference-transaction…
  'core.pager=cat',
  'core.editor=false',
  'sequence.editor=false',
  'core.sshCommand=ssh -oBatchMode=yes', // never a repository's own ssh wrapper
  'core.gitProxy=',
  'core.askPass=',
  'credential.helper=', // an empty value clears the list of helpers
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'tag.forceSignAnnotated=false',
  'log.showSignature=false', // verifying a signature runs gpg.program
  'gpg.program=false',
  'gpg.openpgp.program=false',
  'gpg.x509.program=false',
  'gpg.ssh.program=false',
  'gpg.ssh.defaultKeyCommand=',
  'core.alternateRefsCommand=',
  'protocol.allow=never', // no transport at all: this server never fetches or pushes
  'submodule.recurse=false',
  'status.submoduleSummary=false',
  'diff.submodule=short',
  'diff.ignoreSubmodules=dirty', // no status or diff inside a submodule, whose own filters could run
  'log.mailmap=false', // a mailmap file can be any file on the host
  'mailmap.file=/dev/null',
  // A file anywhere on the host, read whole by status, diff and show: a FIFO there hangs git.
  'diff.orderFile=/dev/null',
  ...userFiles(),
];

/** Flags for every command that prints a diff: textconv still ran on `log -p`, `show` and `blame` with the above. */
export const DIFF_SAFETY: readonly string[] = ['--no-ext-diff', '--no-textconv'];

/**
 * `-c` pairs that empty the clean, smudge and process commands of each filter driver the
 * repository's configuration declares: a driver is a program, and `add`, `diff`, `checkout` and
 * `blame` run it on every matching file.
 */
export function filterOverrides(drivers: readonly string[]): string[] {
  return drivers.flatMap((name) => [
    `filter.${name}.clean=`,
    `filter.${name}.smudge=`,
    `filter.${name}.process=`,
  ]);
}

/**
 * Configuration keys that can run a program and that the pairs above cannot switch off: a
 * repository whose configuration (with its includes) sets one is refused. Every other key that
 * names a program is neutralised: hooks, fsmonitor, pagers, editors, diff drivers and textconv,
 * filters, gpg, credential helpers; transports (`remote.*.uploadpack`, `url.*`, `core.gitProxy`)
 * never run under `protocol.allow=never`; archive commands belong to commands this server never
 * runs. A merge driver runs on `stash pop`, and emptying it would silently keep one side, so
 * `git_stash` refuses to pop in a repository that declares one.
 */
const REFUSED_KEY = [
  /^hook\./, // hooks defined in configuration (git 2.54+): not covered by core.hooksPath
  /^submodule\..+\.update$/, // "!command" runs on submodule update
  /^trailer\..+\.(cmd|command)$/,
  /^uploadpack\.packobjectshook$/,
];

/** The keys of a repository's configuration that make it refused (lower-cased names). */
export function refusedKeys(keys: readonly string[]): string[] {
  return keys.filter((key) => REFUSED_KEY.some((re) => re.test(key.toLowerCase())));
}

/**
 * The environment of every git process, built from nothing but PATH and the locale: no `GIT_*`
 * variable of the server's own environment (GIT_DIR, GIT_EXEC_PATH, GIT_CONFIG_*…) reaches git.
 * `GIT_DIR` and `GIT_WORK_TREE` pin the repository that was checked, whatever its configuration
 * says (`core.worktree` can point anywhere).
 */
export function hardenedEnv(options: {
  gitDir: string;
  workTree: string;
  globalConfig: string;
}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(process.env.SYSTEMROOT ? { SYSTEMROOT: process.env.SYSTEMROOT } : {}),
    HOME: userHome(),
    LC_ALL: 'C',
    GIT_DIR: options.gitDir,
    GIT_WORK_TREE: options.workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: options.globalConfig,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_SEQUENCE_EDITOR: 'false',
    GIT_SSH_COMMAND: 'ssh -oBatchMode=yes',
    GIT_ALLOW_PROTOCOL: 'none',
    GIT_NO_REPLACE_OBJECTS: '1',
  };
}

/** The argument vector before every subcommand: the pairs as `-c` options and no pager. */
export function hardenedArgs(drivers: readonly string[]): string[] {
  return ['--no-pager', ...[...HARDENED_CONFIG, ...filterOverrides(drivers)].flatMap((pair) => ['-c', pair])];
}
