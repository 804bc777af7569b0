/**
 * Request-head checks that run before any body is read or any SDK code sees the request. Each
 * returns a {@link HttpRejection} or `undefined`. They close the gaps seen on the wire with SDK 2.4 for the
 * bare §5.2 recipe: duplicate headers (13), absolute-form targets (14), `Accept` (17), plus the
 * Host/Origin rules of the spec's Streamable HTTP security guidance and the protocol-version rule
 * of §6.
 */
import type { IncomingMessage } from 'node:http';
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { type HttpRejection, INVALID_REQUEST, reject, SERVER_ERROR } from './http-errors.js';

/**
 * The 2026 revision the SDK serves through `createMcpHandler`. The SDK's exported
 * `SUPPORTED_PROTOCOL_VERSIONS` lists only the 2025-era revisions, so it is added here.
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Every `MCP-Protocol-Version` value the runner lets through. */
export const ACCEPTED_PROTOCOL_VERSIONS: readonly string[] = [
  MODERN_PROTOCOL_VERSION,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

/** Loopback names as they appear in a `Host` header or an origin's host part. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Headers that must appear at most once. Node keeps only the first `Host` and `Authorization`
 * (and several others) in `req.headers`, so a good value followed by a bad one would be judged by
 * the good one while a proxy or the SDK may act on the other (seen with SDK 2.4).
 */
const SINGLETON_HEADERS = [
  'host',
  'authorization',
  'origin',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
] as const;

/** True when `host` is a loopback bind address, the only kind allowed without a token. */
export function isLoopbackBindHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * Only origin-form targets (`/mcp?x`) are served. An absolute-form target
 * (`POST http://evil.example:1/mcp`) makes the SDK's request conversion build a broken URL and
 * answer 500 (seen with SDK 2.4); `*` and authority-form have no business here either.
 */
export function checkRequestTarget(url: string | undefined): HttpRejection | undefined {
  if (url === undefined || !url.startsWith('/') || url.startsWith('//')) {
    return reject(400, INVALID_REQUEST, 'Bad Request: only origin-form request targets are accepted.');
  }
  return undefined;
}

/** The path part of an origin-form target. */
export function targetPath(url: string): string {
  const q = url.search(/[?#]/);
  return q === -1 ? url : url.slice(0, q);
}

/** Refuses a request carrying any {@link SINGLETON_HEADERS} more than once. */
export function checkDuplicateHeaders(req: IncomingMessage): HttpRejection | undefined {
  for (const name of SINGLETON_HEADERS) {
    const values = req.headersDistinct[name];
    if (values !== undefined && values.length > 1) {
      return reject(400, INVALID_REQUEST, `Bad Request: more than one ${name} header.`);
    }
  }
  return undefined;
}

/** What the Host check accepts besides the loopback names. */
export interface HostPolicy {
  /** The port the server listens on; a loopback `Host` may name only this one (or none). */
  port: number;
  /** Extra names, lowercased; an entry with a port must match exactly, one without matches any port. */
  allowedHosts: readonly string[];
}

/** Splits a Host header into a lowercased name and an optional port; `undefined` when malformed. */
function splitHost(value: string): { name: string; port?: string } | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  let name: string;
  let rest: string;
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    if (end === -1) return undefined;
    name = v.slice(0, end + 1);
    rest = v.slice(end + 1);
  } else {
    const colon = v.indexOf(':');
    name = colon === -1 ? v : v.slice(0, colon);
    rest = colon === -1 ? '' : v.slice(colon);
  }
  if (rest === '') return { name };
  if (!/^:\d{1,5}$/.test(rest)) return undefined;
  return { name, port: rest.slice(1) };
}

/**
 * DNS-rebinding guard: the `Host` must be a loopback name (with no port or the server's own port)
 * or one of the configured names. A missing Host is refused by Node itself (`requireHostHeader`).
 */
export function checkHost(req: IncomingMessage, policy: HostPolicy): HttpRejection | undefined {
  const raw = req.headers.host;
  const parsed = raw === undefined ? undefined : splitHost(raw);
  const refused = reject(403, SERVER_ERROR, 'Forbidden: Host header is not allowed.');
  if (parsed === undefined) return refused;
  if (LOOPBACK_HOSTNAMES.has(parsed.name)) {
    return parsed.port === undefined || Number(parsed.port) === policy.port ? undefined : refused;
  }
  const full = parsed.port === undefined ? parsed.name : `${parsed.name}:${parsed.port}`;
  for (const entry of policy.allowedHosts) {
    if (entry === full || entry === parsed.name) return undefined;
  }
  return refused;
}

/**
 * When an `Origin` is present it must be a loopback origin (`http(s)://localhost|127.0.0.1|[::1]`
 * on any port) or listed exactly in `allowedOrigins`. `Origin: null` (sandboxed frames, file://
 * pages) is refused: it cannot be attributed to anyone.
 */
export function checkOrigin(
  req: IncomingMessage,
  allowedOrigins: ReadonlySet<string>,
): HttpRejection | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (allowedOrigins.has(origin) || isLoopbackOrigin(origin)) return undefined;
  return reject(403, SERVER_ERROR, 'Forbidden: Origin is not allowed.');
}

function isLoopbackOrigin(origin: string): boolean {
  // An origin is scheme://host[:port] and nothing else; anything longer is not a browser origin.
  if (!/^https?:\/\/[^/?#@\s]+$/i.test(origin)) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return LOOPBACK_HOSTNAMES.has(url.hostname);
}

/** Media types named in an Accept header, lowercased, parameters dropped. */
function acceptedTypes(header: string | undefined): Set<string> {
  const types = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const type = part.split(';', 1)[0]?.trim().toLowerCase();
    if (type) types.add(type);
  }
  return types;
}

/**
 * A POST must accept both answer shapes, because the server picks JSON or SSE per response. The
 * 2026 handler serves a POST that accepts only JSON (seen with SDK 2.4); the spec says 406.
 */
export function checkPostAccept(req: IncomingMessage): HttpRejection | undefined {
  const types = acceptedTypes(req.headers.accept);
  if (types.has('application/json') && types.has('text/event-stream')) return undefined;
  return reject(
    406,
    SERVER_ERROR,
    'Not Acceptable: Accept must list application/json and text/event-stream.',
  );
}

/** A POST body must be declared JSON; hand-wired compositions must check this (`isLegacyRequest` docs). */
export function checkPostContentType(req: IncomingMessage): HttpRejection | undefined {
  if (isJsonContentType(req.headers['content-type'])) return undefined;
  return reject(415, SERVER_ERROR, 'Unsupported Media Type: Content-Type must be application/json.');
}

/**
 * A present `MCP-Protocol-Version` must name a revision this server speaks  * "Streamable HTTP transport" §6). Absent is allowed: 2025 clients omit it on `initialize`.
 */
export function checkProtocolVersion(
  req: IncomingMessage,
  message?: Record<string, unknown>,
): HttpRejection | undefined {
  const version = req.headersDistinct['mcp-protocol-version']?.[0];
  if (version === undefined || ACCEPTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  // The same shape the SDK gives (-32022 with the versions), and the request's id when it was read.
  // A 2026-style request (with the `_meta` envelope) is told the versions `server/discover`
  // lists; a 2025-style one the 2025 revisions its leg serves.
  const id = message?.id;
  const params = message?.params as { _meta?: Record<string, unknown> } | undefined;
  const modern = typeof params?._meta?.['io.modelcontextprotocol/protocolVersion'] === 'string';
  const supported = modern
    ? [MODERN_PROTOCOL_VERSION]
    : ACCEPTED_PROTOCOL_VERSIONS.filter((v) => v !== MODERN_PROTOCOL_VERSION);
  return {
    ...reject(
      400,
      UNSUPPORTED_PROTOCOL_VERSION,
      `Unsupported MCP-Protocol-Version; supported: ${supported.join(', ')}.`,
    ),
    ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
    data: { supported, requested: version },
  };
}

/** JSON-RPC code for an unsupported protocol version (the SDK's `UnsupportedProtocolVersion`). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
