import { type App, type AppOptions, createApp, readPackageInfo } from '@mcpkit/core/server';
import type { GitContext } from './context.js';
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
  // Written on first use, not at start: a server that is only listed never touches the disk.
  let vetted: ReturnType<typeof writeVettedConfig> | undefined;
  const globalConfig = async () => {
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
