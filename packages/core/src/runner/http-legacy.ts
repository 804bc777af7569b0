/**
 * The 2025-era leg: one sessionful `NodeStreamableHTTPServerTransport` and one server instance per
 * session. `createMcpHandler`'s own legacy fallback is stateless and cannot carry server→client
 * requests (SDK 2.4), so 2025 clients are served here instead.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { type AuthInfo, isInitializeRequest, type McpServerFactory } from '@modelcontextprotocol/server';
import type { Logger } from '../logging/logger.js';
import type { SseEventStore } from './event-store.js';
import { INVALID_REQUEST, reject, SESSION_NOT_FOUND, sendRejection } from './http-errors.js';
import type { LegacySession, LegacySessionStore } from './http-sessions.js';

/** Who is calling, as the authenticator decided. */
export interface Caller {
  principal: string | undefined;
  authInfo: AuthInfo | undefined;
}

export interface LegacyLegOptions {
  factory: McpServerFactory;
  store: LegacySessionStore;
  maxBodyBytes: number;
  /** Keeps each session's SSE events for `Last-Event-ID` resumption; shared by all sessions. */
  events: SseEventStore;
  /** The reconnect delay, in ms, sent as the SSE `retry` field of each priming event. */
  retryMs: number;
  log: Logger;
}

export type LegacyLeg = (
  req: IncomingMessage,
  res: ServerResponse,
  message: Record<string, unknown> | undefined,
  caller: Caller,
) => Promise<void>;

/** Builds the handler for exchanges {@link isLegacyExchange} assigned to the 2025 era. */
export function createLegacyLeg(options: LegacyLegOptions): LegacyLeg {
  const { factory, store, maxBodyBytes, events, retryMs, log } = options;

  /** Tracks one exchange on `session` so the reaper never closes a session mid-stream. */
  const track = (session: LegacySession, res: ServerResponse) => {
    store.begin(session);
    res.once('close', () => store.end(session));
  };

  const open = async (
    req: IncomingMessage & { auth?: AuthInfo },
    res: ServerResponse,
    message: Record<string, unknown>,
    caller: Caller,
  ) => {
    let session: LegacySession | undefined;
    // A view of the shared store that finds this session's events only, so a Last-Event-ID can
    // never replay another session's stream.
    const eventStore = events.forSession();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      // 122 random bits from the CSPRNG (the spec: session IDs must be non-deterministic).
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBodyBytes,
      // With a store the SDK primes each POST stream with an id and our `retry`, ids every event,
      // and replays on Last-Event-ID: a dropped stream resumes instead of losing its answer.
      eventStore,
      retryInterval: retryMs,
      onsessioninitialized: (id) => {
        session = { id, transport, principal: caller.principal, lastSeen: 0, active: 0 };
        store.add(session);
        track(session, res);
      },
      // DELETE: the id must answer 404 from now on.
      onsessionclosed: (id) => store.forget(id),
    });
    transport.onclose = () => {
      eventStore.close();
      if (session !== undefined) store.forget(session.id);
    };
    transport.onerror = (error) => log.debug(`legacy transport: ${error.message}`);
    const server = await factory({ era: 'legacy', authInfo: caller.authInfo });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
    // An initialize the SDK refused leaves a transport nobody can reach: release it.
    if (session === undefined) await transport.close();
  };

  return async (req, res, message, caller) => {
    const authed = req as IncomingMessage & { auth?: AuthInfo };
    if (caller.authInfo !== undefined) authed.auth = caller.authInfo;
    const id = req.headersDistinct['mcp-session-id']?.[0];
    if (id === undefined) {
      if (req.method === 'POST' && message !== undefined && isInitializeRequest(message)) {
        await open(authed, res, message, caller);
        return;
      }
      sendRejection(res, reject(400, INVALID_REQUEST, 'Bad Request: Mcp-Session-Id header is required.'));
      return;
    }
    // Unknown, terminated, evicted, reaped and foreign sessions all get the same 404.
    const session = store.lookup(id, caller.principal);
    if (session === undefined) {
      sendRejection(res, reject(404, SESSION_NOT_FOUND, 'Session not found.'));
      return;
    }
    track(session, res);
    await session.transport.handleRequest(authed, res, message);
  };
}
