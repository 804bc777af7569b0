import { cachedPage } from './cached-page.js';

/**
 * Every resource and resource template of the fetch server: the cached pages, listed,
 * completable and subscribable.
 */
export const resources = [cachedPage];
