/** The hosts added to by running a command: Claude Code's `claude mcp add`, VS Code's `code --add-mcp`. */
import { vscodeServer } from './json-hosts.js';
import { commandLine } from './quote.js';
import type { Launch } from './types.js';

// Claude Code: https://code.claude.com/docs/en/mcp (`--` before the stdio command; `--transport http <name> <url>`; `cmd /c` for npx on native Windows).
// The name comes before `--env`: that option takes any number of values and would take the name as one.
export function claudeCodeArgv(name: string, launch: Launch): string[] {
  if (launch.kind === 'http') return ['claude', 'mcp', 'add', '--transport', 'http', name, launch.url];
  const env = Object.entries(launch.env ?? {}).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  return ['claude', 'mcp', 'add', name, ...env, '--', launch.command, ...launch.args];
}

// VS Code: https://code.visualstudio.com/docs/copilot/guides/mcp-developer-guide (`--add-mcp` takes the server object plus its "name")
export function vscodeAddArgv(name: string, launch: Launch): string[] {
  return ['code', '--add-mcp', JSON.stringify({ name, ...vscodeServer(launch) })];
}

/** `argv` as a line to paste: POSIX shell quoting, or Command Prompt's on Windows. */
export function shellText(argv: readonly string[], windows: boolean): string {
  return `${commandLine(argv, windows)}\n`;
}
