/**
 * Every host in one table: its name, where its entry goes, and how the entry is written. The
 * `config` command and the README sections both read entries from here, so they cannot drift.
 */
import { UserError } from '../errors/index.js';
import { codexToml } from './codex.js';
import { claudeCodeArgv, shellText, vscodeAddArgv } from './command-hosts.js';
import {
  claudeDesktopDoc,
  cursorDoc,
  geminiDoc,
  type JsonDoc,
  jsonText,
  vscodeDoc,
  windsurfDoc,
  zedDoc,
} from './json-hosts.js';
import { launchOf } from './launch.js';
import type { EntryOptions, HostEntry, HostId, Launch, LaunchSpec } from './types.js';

interface HostInfo {
  title: string;
  /** Where the entry goes, for the user: one line. */
  where: string;
  render(name: string, launch: Launch, windows: boolean): Pick<HostEntry, 'format' | 'text'>;
}

const json = (doc: (name: string, launch: Launch) => JsonDoc) => (name: string, launch: Launch) => ({
  format: 'json' as const,
  text: jsonText(doc(name, launch)),
});

export const HOST_INFO: Readonly<Record<HostId, HostInfo>> = {
  'claude-desktop': {
    title: 'Claude Desktop',
    where:
      'Merge into claude_desktop_config.json (Claude Desktop: Settings > Developer > Edit Config), then restart Claude Desktop.',
    render: json(claudeDesktopDoc),
  },
  'claude-code': {
    title: 'Claude Code',
    where: 'Run this in a terminal; add --scope user after "add" to have the server in every project.',
    render: (name, launch, windows) => ({
      format: 'shell',
      text: shellText(claudeCodeArgv(name, launch), windows),
    }),
  },
  vscode: {
    title: 'VS Code',
    where:
      'Merge into .vscode/mcp.json in your workspace, or into your user mcp.json (MCP: Open User Configuration).',
    render: json(vscodeDoc),
  },
  cursor: {
    title: 'Cursor',
    where: 'Merge into ~/.cursor/mcp.json for every project, or .cursor/mcp.json for one.',
    render: json(cursorDoc),
  },
  windsurf: {
    title: 'Windsurf',
    where: "Merge into ~/.codeium/windsurf/mcp_config.json, then press refresh in Cascade's MCP panel.",
    render: json(windsurfDoc),
  },
  codex: {
    title: 'Codex CLI',
    where: 'Append to ~/.codex/config.toml (or .codex/config.toml in a trusted project).',
    render: (name, launch) => ({ format: 'toml', text: codexToml(name, launch) }),
  },
  gemini: {
    title: 'Gemini CLI',
    where: 'Merge into ~/.gemini/settings.json (or .gemini/settings.json in a project).',
    render: json(geminiDoc),
  },
  zed: {
    title: 'Zed',
    where: "Merge into Zed's settings.json (command palette: zed: open settings).",
    render: json(zedDoc),
  },
};

const VSCODE_CLI_WHERE = 'Run this in a terminal to add the server to your VS Code user profile.';
const CMD_NOTE = ' Windows form: run it in Command Prompt (cmd.exe).';

/** The entry that adds `spec` to `host`; a combination the host cannot take is a `UserError`. */
export function hostEntry(host: HostId, spec: LaunchSpec, options: EntryOptions): HostEntry {
  const info = HOST_INFO[host];
  const windows = options.windows ?? false;
  const launch = launchOf(spec, options.form, windows);
  if (options.cli && host !== 'vscode') {
    throw new UserError(`--cli is for vscode only: ${info.title} has one form of entry, so drop --cli.`);
  }
  if (options.cli) {
    const text = shellText(vscodeAddArgv(spec.name, launch), windows);
    return { host, format: 'shell', text, where: VSCODE_CLI_WHERE + (windows ? CMD_NOTE : '') };
  }
  const { format, text } = info.render(spec.name, launch, windows);
  return { host, format, text, where: info.where + (windows && format === 'shell' ? CMD_NOTE : '') };
}
