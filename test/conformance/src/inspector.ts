/** The MCP Inspector's CLI (`mcp-inspector --cli`), run under Node 22 against a stdio server. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from './process.js';
import { binOf, node22, USER_NODE } from './runtimes.js';

export interface InspectorResult {
  code: number | null;
  /** The parsed `--format json` payload. */
  json: unknown;
  stderr: string;
}

/**
 * The Inspector keeps a catalog and secrets under the home directory; a throwaway home keeps a
 * test run from reading or writing the developer's own.
 */
async function inspect(args: string[]): Promise<InspectorResult> {
  const home = await mkdtemp(join(tmpdir(), 'mcpkit-inspector-'));
  try {
    const launcher = binOf('@modelcontextprotocol/inspector', 'mcp-inspector');
    const { code, stdout, stderr } = await run(node22(), [launcher, '--cli', ...args, '--format', 'json'], {
      timeoutMs: 60_000,
      env: { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory' },
    });
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      json = undefined;
    }
    return { code, json, stderr: `${stderr}\n${stdout}` };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** `tools/list` with the ad-hoc target form: the server command and its arguments. */
export function listTools(bin: string, binArgs: string[]): Promise<InspectorResult> {
  return inspect([USER_NODE, bin, ...binArgs, '--method', 'tools/list']);
}

/**
 * `tools/call` through a config entry. The ad-hoc form advertises an empty roots list, which (by
 * design) leaves a roots-narrowed server no directory at all; a config entry can offer roots.
 */
export async function callTool(
  bin: string,
  binArgs: string[],
  roots: string[],
  tool: string,
  toolArgs: Record<string, string>,
): Promise<InspectorResult> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-inspector-config-'));
  try {
    const config = join(dir, 'mcp.json');
    const entry = {
      command: USER_NODE,
      args: [bin, ...binArgs],
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href })),
    };
    await writeFile(config, JSON.stringify({ mcpServers: { server: entry } }));
    const pairs = Object.entries(toolArgs).map(([k, v]) => `${k}=${v}`);
    return await inspect([
      '--config',
      config,
      '--server',
      'server',
      '--method',
      'tools/call',
      '--tool-name',
      tool,
      ...(pairs.length > 0 ? ['--tool-arg', ...pairs] : []),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
