/** The hosts an entry can be printed for, in the order help and READMEs list them. */
export type HostId =
  | 'claude-desktop'
  | 'claude-code'
  | 'vscode'
  | 'cursor'
  | 'windsurf'
  | 'codex'
  | 'gemini'
  | 'zed';

export const HOSTS: readonly HostId[] = [
  'claude-desktop',
  'claude-code',
  'vscode',
  'cursor',
  'windsurf',
  'codex',
  'gemini',
  'zed',
];

/** How one server is launched: the package, its bin, the server arguments, extra environment. */
export interface LaunchSpec {
  /** The key hosts list the server under, e.g. `filesystem`. */
  name: string;
  /** The npm package, e.g. `@mcpkit/server-filesystem`. */
  packageName: string;
  /** The bin name, e.g. `mcpkit-filesystem`. */
  bin: string;
  /** Server arguments, passed exactly as given. */
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/**
 * Which way the host starts the server: `npx` fetches the package, `absolute` runs an installed
 * copy with a given Node (no PATH lookup, so nvm and Windows shims cannot get in the way), `http`
 * points the host at a server that is already listening.
 */
export type LaunchForm =
  | { kind: 'npx' }
  | { kind: 'absolute'; node: string; script: string }
  | { kind: 'http'; url: string };

/** A process a host spawns over stdio. */
export interface StdioLaunch {
  kind: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** A Streamable HTTP endpoint a host connects to. */
export interface HttpLaunch {
  kind: 'http';
  url: string;
}

export type Launch = StdioLaunch | HttpLaunch;

export interface EntryOptions {
  form: LaunchForm;
  /** The Windows form: `cmd /c npx …`, and Command Prompt quoting for command lines. */
  windows?: boolean;
  /** VS Code only: the `code --add-mcp` command line instead of an mcp.json document. */
  cli?: boolean;
}

/** What to add to one host: the text itself and one line saying where it goes. */
export interface HostEntry {
  host: HostId;
  /** `json` and `toml` are documents to merge; `shell` is a command line to run. */
  format: 'json' | 'toml' | 'shell';
  text: string;
  where: string;
}
