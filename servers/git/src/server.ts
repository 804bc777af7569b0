import { type App, type AppOptions, createApp, readPackageInfo } from '@mcpkit/core/server';
import type { GitContext } from './context.js';
import { DiffRuns } from './git/diff-runs.js';
import { writeVettedConfig } from './git/user-config.js';
import { prompts } from './prompts/index.js';
import { resources } from './resources/index.js';
import { tools } from './tools/index.js';

/** This package's package.json: the one place its version lives (serverInfo, --version, --help). */
export const PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** The name clients see in `serverInfo`, and the bin's name. */
export const NAME = 'mcpkit-git';

export type GitOptions = AppOptions &
  Required<Pick<AppOptions, 'roots'>> & {
    /** The repository tools use when `repo_path` is left out. */
    defaultRepository?: string;
    /** Configuration keys allowed although they would run a program (lower-case names). */
    allowConfigKeys?: readonly string[];
    /**
     * The file (an absolute path) git reads as its global configuration on every command (who
     * commits, text settings), instead of the vetted copy of the user's own global configuration that the server
     * writes by default; `/dev/null` for none. Given by whoever embeds the app, never by a client:
     * git reads every key in it and, unlike a repository's configuration, it is not vetted, so it
     * must be a file the embedder trusts. The bin never sets it.
     */
    globalConfigFile?: string;
  };

/**
 * The git server: the official server's twelve tools and more, on repositories inside the allowed
 * directories, with every git command hardened so that nothing a repository carries can run.
 *
 * @example
 * ```ts
 * const app = createGitApp({ roots: await RootSet.create(['~/src/app']), defaultRepository: '~/src/app' });
 * serveAppStdio(app);
 * ```
 */
export function createGitApp(options: GitOptions): App<GitContext> {
  // The vetted copy is written on first use, not at start: a server that is only listed never
  // touches the disk.
  let vetted: ReturnType<typeof writeVettedConfig> | undefined;
  const given = options.globalConfigFile;
  const globalConfig =
    given !== undefined
      ? async () => given
      : async () => {
          vetted ??= writeVettedConfig();
          return (await vetted).path;
        };
  return createApp<GitContext>(
    {
      name: NAME,
      version: readPackageInfo(PACKAGE_JSON).version,
      title: 'mcpkit git',
      description:
        'Git repositories: status, diffs, history, blame, commits and branches, hardened against hostile repositories.',
      instructions:
        'Tools take repo_path, a repository inside the allowed directories. Start with git_status; read history with ' +
        'git_log and git_show; the git:// resources show status, files at a ref and commits.',
      tools,
      resources,
      prompts,
      context: {
        create: () => ({
          defaultRepository: options.defaultRepository,
          diffRuns: new DiffRuns(),
          repositories: {
            globalConfig,
            allowedKeys: new Set((options.allowConfigKeys ?? []).map((k) => k.toLowerCase())),
            facts: new Map(),
          },
        }),
        close: async () => {
          if (vetted) await (await vetted).close();
        },
      },
    },
    options,
  );
}
