/**
 * The hosts configured by a JSON document. Each renderer returns a complete document a user can
 * paste (or merge into the one they have), keyed by the short server name. The comment above each
 * says where its shape was checked.
 */
import { UserError } from '../errors/index.js';
import type { Launch, StdioLaunch } from './types.js';

export type JsonDoc = Record<string, unknown>;

/** `command`, `args` and, when set, `env`: the stdio fields every JSON host shares. */
export function stdioFields(launch: StdioLaunch): JsonDoc {
  return { command: launch.command, args: launch.args, ...(launch.env ? { env: launch.env } : {}) };
}

export const CLAUDE_DESKTOP_NO_URL =
  "Claude Desktop's config file only starts local commands, and its custom connectors reach a URL from Anthropic's servers rather than from this computer, so use the npx entry or --absolute for Claude Desktop instead.";

// Claude Desktop: https://modelcontextprotocol.io/quickstart/user (mcpServers in claude_desktop_config.json); remote only via connectors: https://support.claude.com/en/articles/11175166-getting-started-with-custom-connectors-using-remote-mcp
export function claudeDesktopDoc(name: string, launch: Launch): JsonDoc {
  if (launch.kind === 'http') throw new UserError(CLAUDE_DESKTOP_NO_URL);
  return { mcpServers: { [name]: stdioFields(launch) } };
}

/** The server object VS Code reads from mcp.json, `code --add-mcp` and its install link alike. */
export function vscodeServer(launch: Launch): JsonDoc {
  return launch.kind === 'http'
    ? { type: 'http', url: launch.url }
    : { type: 'stdio', ...stdioFields(launch) };
}

// VS Code: https://code.visualstudio.com/docs/copilot/reference/mcp-configuration (a "servers" map, "type" stdio|http)
export function vscodeDoc(name: string, launch: Launch): JsonDoc {
  return { servers: { [name]: vscodeServer(launch) } };
}

/** The server object Cursor reads from mcp.json and from its install link. */
export function cursorServer(launch: Launch): JsonDoc {
  return launch.kind === 'http' ? { url: launch.url } : stdioFields(launch);
}

// Cursor: https://cursor.com/docs/mcp.md and https://cursor.com/docs/mcp/install-links (mcpServers; a remote server is "url")
export function cursorDoc(name: string, launch: Launch): JsonDoc {
  return { mcpServers: { [name]: cursorServer(launch) } };
}

// Windsurf: https://docs.windsurf.com/windsurf/cascade/mcp (mcpServers in ~/.codeium/windsurf/mcp_config.json; remote HTTP is "serverUrl")
export function windsurfDoc(name: string, launch: Launch): JsonDoc {
  return { mcpServers: { [name]: launch.kind === 'http' ? { serverUrl: launch.url } : stdioFields(launch) } };
}

// Gemini CLI: https://geminicli.com/docs/tools/mcp-server (mcpServers in settings.json; Streamable HTTP is "httpUrl", "url" means SSE)
export function geminiDoc(name: string, launch: Launch): JsonDoc {
  return { mcpServers: { [name]: launch.kind === 'http' ? { httpUrl: launch.url } : stdioFields(launch) } };
}

// Zed: https://zed.dev/docs/ai/mcp (context_servers in settings.json, "source": "custom" with command/args/env, or a "url")
export function zedDoc(name: string, launch: Launch): JsonDoc {
  return { context_servers: { [name]: zedServer(launch) } };
}

function zedServer(launch: Launch): JsonDoc {
  if (launch.kind === 'http') return { source: 'custom', url: launch.url };
  // Zed's own example always carries "env", empty or not.
  return { source: 'custom', command: launch.command, args: launch.args, env: launch.env ?? {} };
}

/** A document as it is printed: two-space indents and a final newline. */
export function jsonText(doc: JsonDoc): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
