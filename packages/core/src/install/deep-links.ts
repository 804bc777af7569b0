/** Links that open a host and offer to install the server: VS Code (and Insiders) and Cursor. */
import { cursorServer, vscodeServer } from './json-hosts.js';
import type { Launch } from './types.js';

// VS Code: https://code.visualstudio.com/docs/copilot/guides/mcp-developer-guide (MCP URL handler: `vscode:mcp/install?` + the URL-encoded `--add-mcp` object; `vscode-insiders` for Insiders)
export function vscodeInstallLink(name: string, launch: Launch, insiders = false): string {
  const object = JSON.stringify({ name, ...vscodeServer(launch) });
  return `${insiders ? 'vscode-insiders' : 'vscode'}:mcp/install?${encodeURIComponent(object)}`;
}

// The same offer as an https link, for pages (a README on GitHub) that drop links of other schemes: the
// vscode.dev redirect page opens the `vscode:` (or, with quality=insiders, `vscode-insiders:`) link.
// Shape as used by VS Code's own MCP server listings: `name`, and `config` = the server object as JSON.
export function vscodeWebInstallLink(name: string, launch: Launch, insiders = false): string {
  const config = encodeURIComponent(JSON.stringify(vscodeServer(launch)));
  const quality = insiders ? '&quality=insiders' : '';
  return `https://insiders.vscode.dev/redirect/mcp/install?name=${encodeURIComponent(name)}&config=${config}${quality}`;
}

// Cursor: https://cursor.com/docs/mcp/install-links (`name`, and `config` = the mcp.json server object as base64 JSON)
export function cursorInstallLink(name: string, launch: Launch): string {
  const config = Buffer.from(JSON.stringify(cursorServer(launch)), 'utf8').toString('base64');
  // Base64 holds `+`, `/` and `=`, which a query string would otherwise read as other things.
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(config)}`;
}
