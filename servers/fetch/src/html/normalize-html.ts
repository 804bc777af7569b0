/**
 * Rewrites a fetched page into HTML whose shape is bounded before any DOM sees it. linkedom's
 * parser and Readability both slow down with nesting depth (measured: 10⁵ nested divs take
 * linkedom 5 s to parse; Readability needs 15 s for a chain of 1 000), so a page of 10⁶ nested
 * divs must never reach them. In one linear pass this re-serialises every tag it keeps, with an
 * explicit end tag, so the parser can only build the tree decided here (it may close elements
 * earlier than decided here, never later, so its depth never exceeds the one counted here):
 * - nesting deeper than `maxDepth` is flattened (the start tag is dropped, the text kept; a
 *   link may sit one level deeper, so its target survives), and so are lists nested deeper
 *   than `maxListDepth`;
 * - elements past `maxElements` are dropped (their text kept);
 * - input past `maxChars`, or past the point where the estimated conversion cost passes
 *   `maxCost` even at the shallowest depth, is cut;
 * - scripts, styles, comments, elements left empty, event-handler and style attributes are removed;
 * - `<base href>` and `<meta http-equiv=refresh>` are taken out and reported, never followed.
 */
import { isTagStart, rawTextEnd, readEndTag, readStartTag, type StartTag } from './tag-reader.js';
import { DROPPED_VOID, DROPPED_WITH_CONTENT, RAW_TEXT, UNWRAPPED } from './tag-sets.js';
import { serializeStart, TreeWriter, type WriterStats } from './tree-writer.js';

/** Caps on what reaches the DOM. */
export interface HtmlLimits {
  /** Characters of HTML read; the rest is cut. */
  maxChars: number;
  /** Elements kept. */
  maxElements: number;
  /** Nesting depth kept. */
  maxDepth: number;
  /**
   * Lists nested in each other kept (list items in each other count the same way); deeper lists
   * are flattened into the deepest kept one, their items kept as its items. Turndown indents an
   * item's text once per enclosing item, going over it again at each level, and Readability
   * scans every list's whole subtree, so work and Markdown grow with items times levels: 64 KB
   * of `<ul><li>a`, nested 48 levels deep under the depth cap, made 1.4 MB of Markdown and
   * took 2.1 s of CPU (0.5 s at this cap); 500 levels without caps take about 10 s. Real pages
   * nest lists 3–6 deep.
   */
  maxListDepth: number;
  /**
   * Budget for the estimated conversion cost (tree-writer.ts): element depths, text length times
   * depth, entities. Readability's time grows with all three (measured: 59 000 paragraphs under
   * 94 divs take 9 s). Past the budget the page is normalised again with half the depth, down to
   * {@link MIN_DEPTH}; past it there, the page is cut where the budget ran out.
   */
  maxCost: number;
}

/** The shallowest nesting the cost budget may flatten a page to. */
export const MIN_DEPTH = 12;

/** Defaults: far above real articles (depth 10–40, a few thousand elements), cheap to parse. */
export const DEFAULT_HTML_LIMITS: Readonly<HtmlLimits> = Object.freeze({
  maxChars: 3_000_000,
  maxElements: 60_000,
  maxDepth: 96,
  maxListDepth: 8,
  maxCost: 2_500_000,
});

/** The bounded page and what was changed to bound it. */
export interface NormalizedHtml extends WriterStats {
  /** A complete document: `<html><head>…</head><body>…</body></html>`. */
  html: string;
  /** The nesting limit this pass used. */
  depthLimit: number;
  /** Characters of the input read; less than its length when the page was cut. */
  read: number;
  /** Why the page was cut: too long, or over the cost budget. */
  cut?: 'length' | 'cost';
  /** The first `<base href>` as written. */
  baseHref?: string;
  /** The first `<meta http-equiv="refresh">` content as written (never followed). */
  metaRefresh?: string;
}

/** Characters of text written between two budget checks. */
const TEXT_CHUNK = 16_384;

/** Names re-serialised; anything else after `<` is text (a name with `"` or `<` could split a tag). */
const TAG_NAME = /^[a-z][a-z0-9:-]*$/;

function escapeText(text: string): string {
  return text.replaceAll('<', '&lt;');
}

function attribute(tag: StartTag, name: string): string | undefined {
  return tag.attributes.find(([key]) => key === name)?.[1];
}

/** What goes into `<head>`: the first title, meta and link elements, base and refresh noted. */
class HeadWriter {
  readonly items: string[] = [];
  title = false;
  baseHref: string | undefined;
  metaRefresh: string | undefined;

  /** Takes a head-only tag; false when the tag is not one. */
  take(tag: StartTag, room: boolean): boolean {
    if (tag.name === 'base') this.baseHref ??= attribute(tag, 'href');
    else if (tag.name === 'meta' && attribute(tag, 'http-equiv')?.toLowerCase() === 'refresh')
      this.metaRefresh ??= attribute(tag, 'content');
    else if (tag.name === 'meta' || tag.name === 'link') {
      if (room) this.items.push(`${serializeStart(tag)}</${tag.name}>`);
    } else return false;
    return true;
  }
}

/**
 * Normalises `input` under `limits` in one pass.
 *
 * @example
 * ```ts
 * const page = normalizeHtml(`${'<div>'.repeat(1_000_000)}text`, DEFAULT_HTML_LIMITS);
 * page.depth; // 96 — the rest was flattened
 * ```
 */
export function normalizeHtml(input: string, limits: HtmlLimits = DEFAULT_HTML_LIMITS): NormalizedHtml {
  const src = input.length > limits.maxChars ? input.slice(0, limits.maxChars) : input;
  const tree = new TreeWriter(limits);
  const head = new HeadWriter();
  let i = 0;
  let overBudget = false;
  while (i < src.length) {
    if (tree.stats.cost > limits.maxCost) {
      overBudget = true;
      break;
    }
    const lt = src.indexOf('<', i);
    const textEnd = lt === -1 ? src.length : lt;
    if (textEnd - i > TEXT_CHUNK) {
      // Long text goes in pieces, so the budget can stop it part way.
      tree.text(src.slice(i, i + TEXT_CHUNK));
      i += TEXT_CHUNK;
      continue;
    }
    tree.text(src.slice(i, textEnd));
    if (lt === -1) {
      i = src.length;
      break;
    }
    const next = src.charCodeAt(lt + 1);
    if (next === 0x21 || next === 0x3f) {
      // Comments, doctypes, CDATA and processing instructions are dropped.
      const comment = src.startsWith('<!--', lt);
      const close = comment ? src.indexOf('-->', lt + 2) : src.indexOf('>', lt + 2);
      i = close === -1 ? src.length : close + (comment ? 3 : 1);
      continue;
    }
    const endTag = next === 0x2f ? readEndTag(src, lt) : undefined;
    if (endTag) {
      if (!UNWRAPPED.has(endTag.name)) tree.close(endTag.name);
      i = endTag.end;
      continue;
    }
    const tag = isTagStart(next) ? readStartTag(src, lt) : undefined;
    if (isTagStart(next) && !tag) {
      i = src.length; // the source ends inside a tag
      break;
    }
    if (!tag || !TAG_NAME.test(tag.name)) {
      tree.text('&lt;');
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (UNWRAPPED.has(tag.name) || DROPPED_VOID.has(tag.name)) continue;
    if (head.take(tag, tree.stats.elements < limits.maxElements)) continue;
    if (DROPPED_WITH_CONTENT.has(tag.name) || RAW_TEXT.has(tag.name)) {
      if (tag.selfClosing) continue;
      const { textEnd, end } = rawTextEnd(src, i, tag.name);
      const text = escapeText(src.slice(i, textEnd));
      i = end;
      if (tag.name === 'title' && !head.title) {
        head.title = true;
        head.items.push(`<title>${text}</title>`);
      } else if (tag.name === 'textarea' || tag.name === 'xmp') {
        const as = tag.name === 'xmp' ? 'pre' : tag.name;
        tree.open({ ...tag, name: as });
        tree.text(text);
        tree.close(as);
      }
      continue;
    }
    tree.open(tag);
  }
  const body = tree.finish();
  const html = `<!DOCTYPE html><html><head>${head.items.join('')}</head><body>${body}</body></html>`;
  return {
    html,
    ...tree.stats,
    depthLimit: limits.maxDepth,
    read: i,
    ...(overBudget ? { cut: 'cost' as const } : input.length > src.length ? { cut: 'length' as const } : {}),
    ...(head.baseHref !== undefined ? { baseHref: head.baseHref } : {}),
    ...(head.metaRefresh !== undefined ? { metaRefresh: head.metaRefresh } : {}),
  };
}
