/**
 * The vocabulary shared by the hub and its watch providers. Kept apart from the hub so a provider
 * can be written (and tested) without pulling in the hub's bookkeeping.
 */

/** The three lists whose `notifications/<kind>/list_changed` a server may send. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/**
 * Something that can deliver notifications: a live McpServer instance, or the HTTP handler's notifier.
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/server';
 * const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
 * const target: NotificationTarget = {
 *   resourceUpdated: (uri) => mcp.server.sendResourceUpdated({ uri }),
 *   listChanged: (kind) => (kind === 'resources' ? mcp.sendResourceListChanged() : undefined),
 * };
 * ```
 */
export interface NotificationTarget {
  resourceUpdated(uri: string): void | Promise<void>;
  listChanged(kind: ListKind): void | Promise<void>;
}

/** A running watch; `close()` must release every OS handle and timer it holds. */
export interface WatchSource {
  close(): void | Promise<void>;
}

/**
 * Starts watching one URI; calls `changed()` whenever it may have changed. It may call `changed()`
 * too often (the hub coalesces bursts) but should not miss a change after it has resolved.
 */
export type WatchFactory = (uri: string, changed: () => void) => WatchSource | Promise<WatchSource>;

/** Picks the factory for a URI, or `undefined` when this provider does not handle it. */
export type WatchProvider = (uri: string) => WatchFactory | undefined;
