/**
 * The tag knowledge normalize-html.ts needs, in one place: which elements are void, which hold
 * raw text, which are dropped, which a later start tag closes implicitly (so sloppy real-world
 * HTML such as unclosed `<p>` and `<li>` does not nest without end), and which stay even empty.
 */

/** Void elements kept: they mean something on their own (a break, an image, a cell). */
export const KEPT_VOID: ReadonlySet<string> = new Set(
  'area br col embed hr img input source track wbr'.split(' '),
);

/** Void elements that carry nothing for a reader; dropped. */
export const DROPPED_VOID: ReadonlySet<string> = new Set(
  'basefont bgsound command frame isindex keygen param'.split(' '),
);

/** Elements dropped together with their content. */
export const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set(['script', 'style']);

/** Elements whose content is text up to their end tag. */
export const RAW_TEXT: ReadonlySet<string> = new Set(['title', 'textarea', 'xmp']);

/** Elements whose tags are dropped (the normalised page has its own), their content kept. */
export const UNWRAPPED: ReadonlySet<string> = new Set(['html', 'head', 'body']);

/** Elements kept even when they hold nothing (Markdown converters treat them as meaningful). */
export const KEPT_EMPTY: ReadonlySet<string> = new Set(
  'a table thead tbody tfoot tr th td iframe audio video canvas svg object'.split(' '),
);

/** Start tags that close an open `<p>`. */
export const P_CLOSERS: ReadonlySet<string> = new Set(
  'address article aside blockquote details div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr main nav ol p pre section table ul'.split(
    ' ',
  ),
);

/** Start tags that close the open elements named, while those are on top. */
export const IMPLIED_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['li', new Set(['li'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['tr', new Set(['tr', 'td', 'th'])],
  ['td', new Set(['td', 'th'])],
  ['th', new Set(['td', 'th'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['tbody', new Set(['thead', 'tbody', 'tr', 'td', 'th'])],
  ['tfoot', new Set(['thead', 'tbody', 'tr', 'td', 'th'])],
]);
