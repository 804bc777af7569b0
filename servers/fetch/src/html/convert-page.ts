/**
 * The one entry the tools use to turn a fetched body into text. For now it converts in the
 * calling thread; it is the seam where the conversion moves to a worker with a hard deadline.
 */
import { throwIfAborted } from '@mcpkit/core/progress';
import type { HtmlLimits } from './normalize-html.js';
import { type PageContent, pageContent } from './page-content.js';

/** How one body is converted. */
export interface ConvertOptions {
  /** Return HTML as it is instead of Markdown. */
  raw?: boolean;
  limits?: HtmlLimits;
  /** Stops the conversion (the call was cancelled). */
  signal?: AbortSignal;
}

/**
 * Converts a fetched body to the text the fetch tool returns (see page-content.ts for the rules).
 *
 * @example
 * ```ts
 * const page = await convertPage(result.body, result.contentType, new URL(result.url), { signal: call.signal });
 * ```
 */
export async function convertPage(
  body: Uint8Array,
  contentType: string,
  url: URL,
  options: ConvertOptions = {},
): Promise<PageContent> {
  throwIfAborted(options.signal);
  return pageContent(body, contentType, url, {
    ...(options.raw !== undefined ? { raw: options.raw } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
