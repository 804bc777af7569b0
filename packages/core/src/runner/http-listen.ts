/**
 * Observation of modern `subscriptions/listen` streams. The SDK's handler owns the stream and its
 * filtering; the caller only needs to know which resource URIs somebody is listening to, so it can
 * start (and later stop) the watches that produce `handler.notify.resourceUpdated(uri)` calls.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The resource URIs a `subscriptions/listen` request asks for (`params.notifications.
 * resourceSubscriptions` in the 2026-07-28 schema), or `undefined` when `message` is not a listen
 * request. Non-string entries are dropped; the SDK validates the request itself.
 */
export function listenResourceUris(message: Record<string, unknown>): string[] | undefined {
  if (message.method !== 'subscriptions/listen') return undefined;
  const params = message.params;
  const notifications = isRecord(params) ? params.notifications : undefined;
  const uris = isRecord(notifications) ? notifications.resourceSubscriptions : undefined;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : [];
}
