import { pathToFileURL } from 'node:url';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ElicitRequestParams,
  type ElicitResult,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveAppStdio } from '../runner/stdio.js';
import type { App } from '../server/types.js';
import type { SamplingResponder } from './model.js';
import { type Notification, NotificationLog } from './notifications.js';

export type TestTransport =
  | 'memory'
  | { stdio: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string } }
  | { http: string | URL; headers?: Record<string, string> };

export interface ConnectOptions {
  era: 'legacy' | 'modern';
  /** Default: in memory, through the same serving path as stdio. */
  transport?: TestTransport;
  /** Directories (or file URIs) the client offers as roots; omit for a client without roots. */
  roots?: string[] | (() => string[]);
  /** The client's model; omit for a client that cannot sample. */
  sampling?: SamplingResponder;
  /** Whether sampling offers tools (default true when `sampling` is given). */
  samplingTools?: boolean;
  /** Answers questions; omit for a client that cannot elicit. */
  elicitation?: (params: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>;
}

export interface TestSession {
  client: Client;
  era: 'legacy' | 'modern';
  notifications: NotificationLog;
  /** Calls a tool and returns its result, failing the test on a protocol error. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: {
      signal?: AbortSignal;
      onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
    },
  ): Promise<CallToolResult>;
  /** Tells a 2025 server the roots changed (the 2026 era has no such notification). */
  rootsChanged(): Promise<void>;
  close(): Promise<void>;
}

function toRootUri(p: string): string {
  return p.startsWith('file:') ? p : pathToFileURL(p).href;
}

/**
 * Connects an SDK client to a server in either era, over memory, a spawned stdio process or
 * HTTP, with scripted roots, sampling and elicitation, and collects every notification.
 *
 * @example
 * ```ts
 * const s = await connect(app, { era: 'modern', roots: [dir], sampling: scriptedModel().respond });
 * const r = await s.callTool('echo', { text: 'hi' });
 * await s.close();
 * ```
 */
export async function connect(
  server: App | McpServerFactory | undefined,
  options: ConnectOptions,
): Promise<TestSession> {
  const capabilities: ClientCapabilities = {};
  if (options.roots) capabilities.roots = { listChanged: true };
  if (options.sampling) capabilities.sampling = options.samplingTools === false ? {} : { tools: {} };
  if (options.elicitation) capabilities.elicitation = { form: {} };
  const client = new Client(
    { name: 'mcpkit-test', version: '0.0.0' },
    {
      capabilities,
      ...(options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const notifications = new NotificationLog();
  client.fallbackNotificationHandler = async (n) => {
    notifications.push(n as Notification);
  };
  const roots = options.roots;
  if (roots) {
    client.setRequestHandler('roots/list', async () => ({
      roots: (typeof roots === 'function' ? roots() : roots).map((p) => ({ uri: toRootUri(p) })),
    }));
  }
  const sampling = options.sampling;
  if (sampling) client.setRequestHandler('sampling/createMessage', async (req) => sampling(req.params));
  const elicitation = options.elicitation;
  if (elicitation) client.setRequestHandler('elicitation/create', async (req) => elicitation(req.params));

  const transport = options.transport ?? 'memory';
  let closeServer: () => Promise<void> = async () => {};
  let httpTransport: StreamableHTTPClientTransport | undefined;
  if (transport === 'memory') {
    if (!server) throw new Error('connect: an in-memory session needs an app or a factory');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle =
      typeof server === 'function'
        ? serveStdio(server, { transport: serverSide })
        : serveAppStdio(server, { transport: serverSide });
    closeServer = () => handle.close();
    await client.connect(clientSide);
  } else if ('stdio' in transport) {
    await client.connect(
      new StdioClientTransport({
        command: transport.stdio.command,
        args: transport.stdio.args ?? [],
        env: { ...getDefaultEnvironment(), ...transport.stdio.env },
        ...(transport.stdio.cwd ? { cwd: transport.stdio.cwd } : {}),
        stderr: 'pipe',
      }),
    );
  } else {
    httpTransport = new StreamableHTTPClientTransport(new URL(transport.http), {
      requestInit: { headers: transport.headers ?? {} },
    });
    await client.connect(httpTransport);
  }

  return {
    client,
    era: options.era,
    notifications,
    async callTool(name, args = {}, callOptions = {}) {
      return (await client.callTool(
        { name, arguments: args },
        {
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          ...(callOptions.onprogress ? { onprogress: callOptions.onprogress } : {}),
        },
      )) as CallToolResult;
    },
    rootsChanged: () => client.sendRootsListChanged(),
    async close() {
      // A 2025 HTTP session outlives client.close(); end it explicitly.
      if (httpTransport && options.era === 'legacy') await httpTransport.terminateSession().catch(() => {});
      await client.close();
      await closeServer();
    },
  };
}
