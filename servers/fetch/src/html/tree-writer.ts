/**
 * The output side of normalize-html.ts: it writes the body of the normalised page while keeping
 * the only model of the tree that matters. Every element it opens gets an explicit end tag, so a
 * parser reading the output can close elements earlier than decided here (its own implied
 * closes), never later: its depth never exceeds the depth counted here. It also drops elements
 * that end up empty (Turndown spends ~100 µs on each blank element; a page of 60 000 empty spans
 * would take seconds) and estimates what the conversion will cost (see the cost model below):
 * linkedom makes a text node per entity and Readability re-parses the page when it retries, so
 * elements, depth, text and entities all count.
 */

import { MAX_URL_LENGTH } from '../net/url-length.js';
import type { StartTag } from './tag-reader.js';
import { IMPLIED_CLOSE, KEPT_EMPTY, KEPT_VOID, P_CLOSERS } from './tag-sets.js';

/**
 * The cost model, in units of roughly a microsecond of Readability plus Turndown on linkedom,
 * measured on storms of each shape (60 000 images took 27 s, 60 000 breaks 6 s, 42 000 `&lt;`
 * under 12 levels 2 s but at the top 14 ms, plain text 0.5 s for 3 MB): a base per element plus
 * its depth, extra for the elements those libraries work hard on, text by length times depth,
 * and entities times depth.
 */
const ELEMENT_COST = 30;
const DEPTH_COST = 2;
const TEXT_COST_DIVISOR = 40;
/** Entities, and `>` (which linkedom escapes when Readability serialises and re-parses). */
const ENTITY_COST = 10;
const ENTITY_DEPTH_COST = 4;
/**
 * A list item outside any list. Readability removes a container holding more items than
 * paragraphs unless its text is mostly in lists, finds too little text left and starts over, up
 * to four times: storms of such items took 2.1–2.8 µs of CPU per unit of this model, the same
 * items in lists 0.9–1.1 µs. The extra brings them back in line.
 */
const STRAY_ITEM_COST = 60;
const TAG_COST: ReadonlyMap<string, number> = new Map([
  ['img', 420],
  ['br', 100],
  ['a', 100],
  ['td', 60],
  ['th', 60],
  ['tr', 30],
  ['hr', 40],
  ['input', 40],
  ['iframe', 40],
  ['video', 40],
  ['audio', 40],
]);

/** The caps the writer enforces. */
export interface WriterLimits {
  maxElements: number;
  maxDepth: number;
  /** Lists (and list items) nested in each other. */
  maxListDepth: number;
}

/** What the writer did. */
export interface WriterStats {
  elements: number;
  depth: number;
  cost: number;
  flattened: number;
  /** Lists and list items flattened by the list nesting cap. */
  listsFlattened: number;
  dropped: number;
}

/** The elements Readability and Turndown treat as lists (`menu` is not one to them). */
const LISTS: readonly string[] = ['ul', 'ol'];

const SAFE_ATTRIBUTE = /^[a-z_:][a-z0-9_:.-]*$/;
const MAX_VALUE = 2_048;

/** A start tag as written: safe attribute names only, no handlers or styles, values quoted. */
export function serializeStart(tag: StartTag): string {
  let out = `<${tag.name}`;
  for (const [name, value] of tag.attributes) {
    if (!SAFE_ATTRIBUTE.test(name) || name.startsWith('on') || name === 'style') continue;
    if (value.length > (name === 'href' || name === 'src' ? MAX_URL_LENGTH : MAX_VALUE)) continue;
    out += ` ${name}="${value.replaceAll('"', '&quot;').replaceAll('<', '&lt;')}"`;
  }
  return `${out}>`;
}

interface Open {
  name: string;
  /** Index in the output where its start tag is. */
  start: number;
  /** Holds non-blank text or a kept element. */
  content: boolean;
  /** Holds white space (kept as one space when the element is dropped as empty). */
  space: boolean;
  /** What its start tag added to the cost, given back when it is dropped as empty. */
  cost: number;
}

/** Writes the normalised body; read the result with {@link TreeWriter.finish}. */
export class TreeWriter {
  readonly stats: WriterStats = {
    elements: 0,
    depth: 0,
    cost: 0,
    flattened: 0,
    listsFlattened: 0,
    dropped: 0,
  };
  readonly #out: string[] = [];
  readonly #stack: Open[] = [];
  readonly #openCount = new Map<string, number>();
  readonly #limits: WriterLimits;

  constructor(limits: WriterLimits) {
    this.#limits = limits;
  }

  /** Writes text that holds no `<` (the caller escapes it). */
  text(text: string): void {
    if (text === '') return;
    this.#out.push(text);
    let escaped = 0;
    for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) escaped++;
    for (let at = text.indexOf('>'); at !== -1; at = text.indexOf('>', at + 1)) escaped++;
    const depth = this.#stack.length + 1;
    this.stats.cost +=
      Math.ceil((text.length * depth) / TEXT_COST_DIVISOR) +
      escaped * (ENTITY_COST + ENTITY_DEPTH_COST * depth);
    const top = this.#stack[this.#stack.length - 1];
    if (!top) return;
    if (/\S/.test(text)) top.content = true;
    else top.space = true;
  }

  /** Opens an element (or writes a void or self-closed one), within the caps. */
  open(tag: StartTag): void {
    this.#closeImplied(tag.name);
    if (this.stats.elements >= this.#limits.maxElements) return void this.stats.dropped++;
    const leaf = KEPT_VOID.has(tag.name) || tag.selfClosing;
    // A link may go one level past the cap, so flattening keeps its target; nothing nests in it.
    const limit = tag.name === 'a' ? this.#limits.maxDepth + 1 : this.#limits.maxDepth;
    if (!leaf && this.#stack.length >= limit) return void this.stats.flattened++;
    // Lists deeper than the cap become items of the deepest list kept (an item's start tag
    // closes the open item before it): see HtmlLimits.maxListDepth for what deep lists cost.
    const lists = this.#openLists();
    if (this.#listTooDeep(tag.name, lists)) return void this.stats.listsFlattened++;
    const stray = tag.name === 'li' && lists === 0 ? STRAY_ITEM_COST : 0;
    const cost = ELEMENT_COST + DEPTH_COST * (this.#stack.length + 1) + (TAG_COST.get(tag.name) ?? 0) + stray;
    this.stats.elements++;
    this.stats.cost += cost;
    if (leaf) {
      if (!KEPT_VOID.has(tag.name) && !KEPT_EMPTY.has(tag.name)) {
        this.stats.elements--;
        this.stats.cost -= cost;
        return;
      }
      this.#markContent();
      // An explicit end tag is a no-op where the parser knows the name is void; `</br>` would add a break.
      this.#out.push(serializeStart(tag), tag.name === 'br' ? '' : `</${tag.name}>`);
      return;
    }
    this.#stack.push({ name: tag.name, start: this.#out.length, content: false, space: false, cost });
    this.#out.push(serializeStart(tag));
    this.#openCount.set(tag.name, (this.#openCount.get(tag.name) ?? 0) + 1);
    this.stats.depth = Math.max(this.stats.depth, this.#stack.length);
  }

  /** Closes the innermost open element named `name` and everything inside it; ignored if none is open. */
  close(name: string): void {
    if ((this.#openCount.get(name) ?? 0) <= 0) return;
    while (this.#stack.length > 0 && this.#stack[this.#stack.length - 1]!.name !== name) this.#pop();
    if (this.#stack.length > 0) this.#pop();
  }

  /** Closes everything and returns the body. */
  finish(): string {
    while (this.#stack.length > 0) this.#pop();
    return this.#out.join('');
  }

  /** True for a list, or a list item, opened inside `maxListDepth` others of its kind. */
  #listTooDeep(name: string, lists: number): boolean {
    if (name === 'li') return (this.#openCount.get('li') ?? 0) >= this.#limits.maxListDepth;
    return LISTS.includes(name) && lists >= this.#limits.maxListDepth;
  }

  /** Lists open now. */
  #openLists(): number {
    let open = 0;
    for (const name of LISTS) open += this.#openCount.get(name) ?? 0;
    return open;
  }

  #markContent(): void {
    const top = this.#stack[this.#stack.length - 1];
    if (top) top.content = true;
  }

  #pop(): void {
    const open = this.#stack.pop()!;
    this.#openCount.set(open.name, (this.#openCount.get(open.name) ?? 1) - 1);
    if (!open.content && !KEPT_EMPTY.has(open.name)) {
      this.#out.length = open.start;
      this.stats.elements--;
      this.stats.cost -= open.cost;
      if (open.space) this.text(' ');
      return;
    }
    this.#out.push(`</${open.name}>`);
    this.#markContent();
  }

  #closeImplied(name: string): void {
    const closes = IMPLIED_CLOSE.get(name);
    const top = () => this.#stack[this.#stack.length - 1]?.name;
    if (closes) while (this.#stack.length > 0 && closes.has(top()!)) this.#pop();
    if (P_CLOSERS.has(name) && top() === 'p') this.#pop();
  }
}
