/**
 * The one entry the tools use to turn a fetched body into text or into its links. HTML is read in
 * a worker thread with a hard deadline (convert-workers.ts), so a page that is slow to convert, or
 * has a storm of links, never blocks the other calls of the server and is stopped when its time
 * is up or its call is cancelled.
 *
 * The server's thread imports this module, so it reaches the DOM libraries (linkedom,
 * Readability, Turndown) only through the worker: nothing here imports page-content.ts,
 * to-markdown.ts or links.ts except as types. test/bundle-split.test.ts holds the bin to that.
 */
import { throwIfAborted } from '@mcpkit/core/progress';
import { type PageContent, rawContent, readBody } from './body-text.js';
import { type ConvertJob, ConvertWorkers } from './convert-workers.js';
import type { PageLinks } from './links.js';
import type { HtmlLimits } from './normalize-html.js';

/** How one body is converted. */
export interface ConvertOptions {
  /** Return HTML as it is instead of Markdown. */
  raw?: boolean;
  limits?: HtmlLimits;
  /** Stops the conversion (the call was cancelled). */
  signal?: AbortSignal;
  /** The hard deadline of the conversion; {@link CONVERT_TIMEOUT_MS} by default. */
  timeoutMs?: number;
}

/**
 * Time one page may take to convert, or to list its links. The largest article the caps of
 * normalize-html.ts let through (3 MB, cut by the cost budget at 1.8 M characters) took 3.4–6.6 s
 * in a warm thread on two shared, loaded cores. The worst hostile shapes (storms of links,
 * images, breaks, list items; lists nested to the list cap) take 1–2.5 s of CPU each; the
 * deadline is for what the cost model has not foreseen.
 */
export const CONVERT_TIMEOUT_MS = 15_000;

/*
 * Measured on Node 20.20, two shared cores also running other work:
 * - Thread start (new Worker to `ready`, modules loaded): 318 ms (241–424). So one thread is
 *   kept, and replaced at once after a kill. Its first page is slower than the next (1 MB:
 *   1.4–1.6 s, then 1.0–1.4 s); a warm-up conversion at start gained too little to keep.
 * - 1 MB article (test/support/article.ts), medians: in-thread 1 267 ms, in the worker 836 ms
 *   (7 runs, load 3); 2 055 and 1 939 ms (9 runs alternating, load 7.6). The server's loop
 *   stayed free meanwhile: its longest pause was 12 ms at load 3, 86 ms at load 7.6.
 * - 5 KB article, medians: in-thread 3.1 ms, in the worker 6.1 ms (7 runs, load 3); 3.1 and
 *   13.5 ms (31 runs, load 7.6). A tiny page: 0.9 against 2.2 ms.
 * - No in-thread shortcut for small bodies: the round trip costs a millisecond or two, but a
 *   small hostile page is not cheap. Nested `<ul><li>a` blocked the loop 106 ms at 512 bytes,
 *   338 ms at 4 KB and 1.2 s at 16 KB in-thread. Only raw=true (a linear decode) stays here.
 * - The body goes as a copy of exactly its bytes whose buffer is transferred: 0.07 ms of the
 *   server's thread for 1 MB, decoded in the thread. Decoding first cost 0.87 ms here; cloning a
 *   view copies its whole backing buffer (0.17 ms for a view into 5 MB). The caller keeps its
 *   bytes: the page cache holds them.
 * - Two threads, the second only while pages convert at once (it stops after 30 s idle): a 5 KB
 *   page queued behind a 1 MB one waited 979 ms with one thread, 20 ms with two; four 1 MB
 *   pages at once took about the same with one or two (two cores). A thread costs 32 MB idle
 *   and ~100 MB after a 1 MB page.
 * - Heap: a 1 MB page needs 32–64 MB, the largest page the caps allow 96–128 MB; 256 MB leaves
 *   room without the GC thrashing (at 64 MB the 1 MB page took 6 s).
 */
const workers = new ConvertWorkers({ size: 2, heapMb: 256 });

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
  if (options.raw) return rawContent(readBody(body, contentType, url).text, contentType);
  return workers.convert(job(body, contentType, url, options));
}

function job(body: Uint8Array, contentType: string, url: URL, options: ConvertOptions): ConvertJob {
  return {
    body,
    contentType,
    url,
    ...(options.limits ? { limits: options.limits } : {}),
    timeoutMs: options.timeoutMs ?? CONVERT_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/**
 * The links of a fetched HTML body (see links.ts), listed in a conversion thread under the same
 * deadline, heap and HTML caps as a conversion. Rejects with a sentence for a body that is not
 * HTML. `raw` does not apply.
 *
 * @example
 * ```ts
 * const { links } = await listLinks(page.body, page.contentType, new URL(page.finalUrl), { sameOrigin: true });
 * ```
 */
export async function listLinks(
  body: Uint8Array,
  contentType: string,
  url: URL,
  options: Omit<ConvertOptions, 'raw'> & { sameOrigin?: boolean } = {},
): Promise<PageLinks> {
  throwIfAborted(options.signal);
  return workers.links(job(body, contentType, url, options), options.sameOrigin === true);
}

/** Stops the conversion threads (when the app closes); a later conversion starts a fresh one. */
export function closeConvertWorkers(): Promise<void> {
  return workers.close();
}

/** The conversion threads alive now, and how many are working on a page, for tests and diagnostics. */
export function convertThreads(): { count: number; ids: number[]; busy: number } {
  return { count: workers.threads, ids: workers.threadIds(), busy: workers.busy };
}
