/**
 * The longest URL this server fetches. Its own file, free of imports, because two sides need the
 * one number: url-check.ts refuses a longer URL before anything else, and the link list (which
 * runs in the conversion worker, html/links.ts) leaves such links out, since fetch would refuse
 * them.
 */
export const MAX_URL_LENGTH = 8192;
