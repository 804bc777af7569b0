/**
 * Resource and list change notifications for both protocol eras: who subscribed to what, one watch
 * per subscribed URI (file watcher or poller), bursts coalesced, fan-out to every delivery target.
 */
export { type FileWatchProviderOptions, fileWatchProvider } from './file-watch.js';
export {
  type AddTargetOptions,
  SubscriptionHub,
  type SubscriptionHubOptions,
  type SubscriptionStats,
} from './hub.js';
export { type PollProviderOptions, pollProvider } from './poll.js';
export type { ListKind, NotificationTarget, WatchFactory, WatchProvider, WatchSource } from './types.js';
