/**
 * A page fetched for a prompt. A prompt is chosen by the user, so, like the official server's
 * prompt, it does not consult robots.txt (that file governs automated fetching; tools still
 * honour it). Everything else is the same as for a tool: the guarded client (address policy,
 * redirects, limits) and the page cache, whose `'stored'` event updates the cache resources.
 * The text is fenced as untrusted and cut to the output budget with the official hint to read on.
 */
import { UserError } from '@mcpkit/core/errors';
import { pageText } from '../content/page-text.js';
import { fenceUntrusted } from '../content/untrusted.js';
import type { FetchCall } from '../context.js';
import { pageBody, paginate } from '../paging/paginate.js';

/** What a prompt puts in its message. */
export interface PromptPage {
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** The content, fenced and bounded. */
  text: string;
}

/**
 * Fetches `url` for a prompt. Throws a `UserError` sentence for a refused, failed or error
 * response.
 *
 * @example
 * ```ts
 * const page = await promptPage(call, 'https://example.com/');
 * ```
 */
export async function promptPage(call: FetchCall, url: string): Promise<PromptPage> {
  const { context } = call;
  const { page } = await context.pages.fetch(context.client, url, { signal: call.signal });
  if (page.status >= 400)
    throw new UserError(`Failed to fetch ${url}: the server answered ${page.status}; check the URL.`);
  const content = await pageText(context.pages, page, { signal: call.signal });
  // Characters are counted as fetch's start_index counts them; 4 bytes each at most.
  const shown = paginate(
    content.prefix + content.text,
    0,
    Math.max(1, Math.floor(call.app.outputLimitBytes / 4)),
  );
  return {
    finalUrl: page.finalUrl,
    text: fenceUntrusted(shown.exhausted ? '' : pageBody(shown), page.finalUrl),
  };
}
