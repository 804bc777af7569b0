/**
 * Host config entries: what to add to Claude Desktop, Claude Code, VS Code, Cursor, Windsurf,
 * Codex CLI, Gemini CLI or Zed to run a server, printed by `<bin> config <host>` and written into
 * READMEs by the same code.
 */

export { type ConfigBin, type ConfigIo, configCommand, configHelp, shortName } from './config-command.js';
export { cursorInstallLink, vscodeInstallLink, vscodeWebInstallLink } from './deep-links.js';
export { HOST_INFO, hostEntry } from './hosts.js';
export { absoluteLaunch, launchOf, npxLaunch } from './launch.js';
export { installMarkdown } from './markdown.js';
export { commandLine } from './quote.js';
export {
  type EntryOptions,
  HOSTS,
  type HostEntry,
  type HostId,
  type HttpLaunch,
  type Launch,
  type LaunchForm,
  type LaunchSpec,
  type StdioLaunch,
} from './types.js';
