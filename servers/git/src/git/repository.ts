/**
 * One repository the server may work on, and the only way its git processes are started: every
 * command gets the hardened configuration, the pinned repository and the vetted user
 * configuration, through simple-git (short commands) or core's `runProcess` (commands that stream,
 * are bounded, or must die with the call).
 */
import { type ProcessResult, runProcess } from '@mcpkit/core/progress';
import { type SimpleGit, simpleGit } from 'simple-git';
import { GitFailed } from './errors.js';
import { filterOverrides, HARDENED_CONFIG, hardenedArgs, hardenedEnv } from './hardening.js';

/** What opening a repository established; see `open-repository.ts`. */
export interface RepositoryFacts {
  /** Real path of the work tree. */
  readonly top: string;
  /** Absolute git directory of this work tree. */
  readonly gitDir: string;
  /** Where refs, objects and the configuration live (differs from `gitDir` in a linked worktree). */
  readonly commonDir: string;
  /** Filter drivers the repository's configuration declares: each is emptied on every command. */
  readonly drivers: readonly string[];
}

/** Reads that walk a big repository (long diffs, log, blame): git may take this long before it is stopped. */
export const READ_TIMEOUT_MS = 120_000;

export interface RunOptions {
  signal?: AbortSignal;
  /** Output past this many bytes is cut and the process killed. Default 16 MiB. */
  maxOutputBytes?: number;
  timeoutMs?: number;
  input?: string;
  /** Exit codes that are not failures (e.g. 1 for `diff --exit-code`). Default: 0 only. */
  okCodes?: readonly number[];
  /** Called with each piece of stdout as it arrives: what a long read counts its progress by. */
  onOutput?: (chunk: Buffer) => void;
}

/**
 * simple-git keeps guards against options that run programs. The hardening sets exactly such keys
 * and variables, to safe values, so these categories are allowed; every other guard stays on.
 */
const UNSAFE_ALLOWED = {
  allowUnsafeFsMonitor: true,
  allowUnsafeHooksPath: true,
  allowUnsafePager: true,
  allowUnsafeEditor: true,
  allowUnsafeSshCommand: true,
  allowUnsafeGitProxy: true,
  allowUnsafeAskPass: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeFilter: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafeConfigPaths: true,
} as const;

export class Repository {
  readonly top: string;
  readonly gitDir: string;
  readonly commonDir: string;
  readonly #drivers: readonly string[];
  readonly #env: NodeJS.ProcessEnv;
  readonly #args: readonly string[];

  constructor(facts: RepositoryFacts, globalConfig: string) {
    this.top = facts.top;
    this.gitDir = facts.gitDir;
    this.commonDir = facts.commonDir;
    this.#drivers = facts.drivers;
    this.#env = hardenedEnv({ gitDir: facts.gitDir, workTree: facts.top, globalConfig });
    this.#args = hardenedArgs(facts.drivers);
  }

  /** Runs `git <args>` hardened; a failing exit code becomes {@link GitFailed}. */
  async run(args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
    const result = await this.runRaw(args, options);
    if (!(options.okCodes ?? [0]).includes(result.code ?? -1)) throw new GitFailed(args[0] ?? 'git', result);
    return result;
  }

  /** Runs `git <args>` hardened and returns whatever it did, exit code included. */
  runRaw(args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
    return runProcess('git', [...this.#args, ...args], {
      cwd: this.top,
      env: this.#env,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    });
  }

  /** A simple-git instance on this repository, hardened the same way, aborted with `signal`. */
  simple(signal?: AbortSignal): SimpleGit {
    return simpleGit({
      baseDir: this.top,
      config: [...HARDENED_CONFIG, ...filterOverrides(this.#drivers)],
      unsafe: UNSAFE_ALLOWED,
      allowEnvironment: Object.keys(this.#env),
      timeout: { block: 30_000 },
      ...(signal ? { abort: signal } : {}),
    }).env(this.#env);
  }
}
