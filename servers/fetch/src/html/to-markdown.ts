/**
 * HTML to Markdown the way the official fetch server does it (Readability picks the article,
 * then a Markdown converter with ATX headings), on a DOM bounded by normalize-html.ts. Readability
 * hands back its element (not an HTML string), so the article is converted without a second
 * parse. When Readability finds no article, the whole body is converted instead of failing.
 */
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { listItemRule } from './list-items.js';
import { loadDocument } from './load-document.js';
import { resolveMetaRefresh } from './meta-refresh.js';
import { DEFAULT_HTML_LIMITS, type HtmlLimits, type NormalizedHtml } from './normalize-html.js';

/** A page as Markdown, with what the reader should know about the conversion. */
export interface MarkdownPage {
  markdown: string;
  title?: string;
  /** True when Readability found an article; false when the whole body was converted. */
  simplified: boolean;
  /** Where a `<meta http-equiv="refresh">` points (absolute when it parses); never followed. */
  metaRefresh?: string;
  /** Sentences about caps that changed the page (cut, flattened, dropped). */
  notes: string[];
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});
turndown.remove([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'form',
  'button',
  'select',
]);
turndown.addRule('listItem', listItemRule);

/** What the caps changed, as sentences. */
export function shapeNotes(shape: Omit<NormalizedHtml, 'html'>, limits: HtmlLimits): string[] {
  const notes: string[] = [];
  if (shape.cut === 'length')
    notes.push(`The page was cut to its first ${limits.maxChars} characters before conversion.`);
  if (shape.cut === 'cost')
    notes.push(`The page was cut after ${shape.read} characters to bound the conversion time.`);
  if (shape.flattened > 0)
    notes.push(`${shape.flattened} elements nested deeper than ${shape.depthLimit} levels were flattened.`);
  if (shape.listsFlattened > 0)
    notes.push(
      `${shape.listsFlattened} lists and list items nested more than ${limits.maxListDepth} levels deep were flattened.`,
    );
  if (shape.dropped > 0)
    notes.push(
      `${shape.dropped} elements beyond the first ${limits.maxElements} were dropped, their text kept.`,
    );
  return notes;
}

function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Converts a fetched HTML page to Markdown.
 *
 * @example
 * ```ts
 * const page = htmlToMarkdown(html, new URL('https://example.com/post'));
 * console.log(page.markdown);
 * ```
 */
export function htmlToMarkdown(
  html: string,
  url: URL,
  limits: HtmlLimits = DEFAULT_HTML_LIMITS,
): MarkdownPage {
  const { document, base, shape } = loadDocument(html, url, limits);
  const pageTitle = document.title?.trim() || undefined;
  const notes = shapeNotes(shape, limits);
  const metaRefresh = resolveMetaRefresh(shape.metaRefresh, base);
  const extras = { notes, ...(metaRefresh ? { metaRefresh } : {}) };
  const article = new Readability<Node>(document, {
    serializer: (node) => node,
    maxElemsToParse: limits.maxElements + 16,
  }).parse();
  const content = article?.content as HTMLElement | null | undefined;
  if (content && (article?.textContent ?? '').trim() !== '') {
    const title = article?.title?.trim() || pageTitle;
    return {
      markdown: tidy(turndown.turndown(content)),
      simplified: true,
      ...(title ? { title } : {}),
      ...extras,
    };
  }
  // Readability changes the document while it works, so the body is converted from a fresh parse.
  const fresh = loadDocument(html, url, limits).document;
  const markdown = fresh.body ? tidy(turndown.turndown(fresh.body)) : '';
  return { markdown, simplified: false, ...(pageTitle ? { title: pageTitle } : {}), ...extras };
}
