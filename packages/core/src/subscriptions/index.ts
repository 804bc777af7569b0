/**
 * Resource change notifications for both protocol eras. A resource definition's `watch` returns a
 * watch for one URI (a file watcher or a poller); core's hub starts it on the first subscriber,
 * coalesces bursts, delivers to every client, and stops it on the last. `call.app.hub` announces
 * changes a tool made itself.
 */
export { type FileWatchOptions, watchFile } from './file-watch.js';
export type { SubscriptionHub } from './hub.js';
export { type PollProviderOptions, pollWatch } from './poll.js';
export type { ListKind, NotificationTarget, WatchFactory, WatchProvider, WatchSource } from './types.js';
