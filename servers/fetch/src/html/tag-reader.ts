/**
 * A small, linear-time reader for one HTML tag at a time, for normalize-html.ts. It never builds
 * a tree and never backtracks, so any input is read in one pass: a hostile page can make it do
 * no more work than its length.
 */

/** One start tag as read from the source. */
export interface StartTag {
  /** Lower-case tag name. */
  name: string;
  /** Attributes in source order, names lower-cased, values as written (entities not decoded). */
  attributes: Array<[string, string]>;
  /** Written as `<x ... />`. */
  selfClosing: boolean;
  /** Index just past the closing `>`. */
  end: number;
}

/** Attributes kept per tag; the rest of a tag with thousands of them is ignored. */
const MAX_ATTRIBUTES = 64;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/** True for an ASCII letter, the only character that may start a tag name. */
export function isTagStart(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function skipSpace(src: string, from: number): number {
  let j = from;
  while (j < src.length && isSpace(src.charCodeAt(j))) j++;
  return j;
}

/** The end of a name: up to white space, `/`, `>` (and `=` for attribute names). */
function nameEnd(src: string, from: number, stopAtEquals: boolean): number {
  let j = from;
  while (j < src.length) {
    const code = src.charCodeAt(j);
    if (isSpace(code) || code === 0x2f || code === 0x3e || (stopAtEquals && code === 0x3d && j > from)) break;
    j++;
  }
  return j;
}

/**
 * Reads the start tag whose `<` is at `lt` (the next character is a letter). Returns `undefined`
 * when the source ends inside the tag (an unclosed quote included).
 */
export function readStartTag(src: string, lt: number): StartTag | undefined {
  let j = nameEnd(src, lt + 1, false);
  const name = src.slice(lt + 1, j).toLowerCase();
  const attributes: Array<[string, string]> = [];
  for (;;) {
    j = skipSpace(src, j);
    if (j >= src.length) return undefined;
    const code = src.charCodeAt(j);
    if (code === 0x3e) return { name, attributes, selfClosing: false, end: j + 1 };
    if (code === 0x2f) {
      if (src.charCodeAt(j + 1) === 0x3e) return { name, attributes, selfClosing: true, end: j + 2 };
      j++;
      continue;
    }
    const start = j;
    j = Math.max(nameEnd(src, j, true), j + 1);
    const attribute = src.slice(start, j).toLowerCase();
    let value = '';
    const afterName = skipSpace(src, j);
    if (src.charCodeAt(afterName) === 0x3d) {
      j = skipSpace(src, afterName + 1);
      const quote = src.charCodeAt(j);
      if (quote === 0x22 || quote === 0x27) {
        const close = src.indexOf(String.fromCharCode(quote), j + 1);
        if (close === -1) return undefined;
        value = src.slice(j + 1, close);
        j = close + 1;
      } else {
        const from = j;
        while (j < src.length && !isSpace(src.charCodeAt(j)) && src.charCodeAt(j) !== 0x3e) j++;
        value = src.slice(from, j);
      }
    }
    if (attributes.length < MAX_ATTRIBUTES) attributes.push([attribute, value]);
  }
}

/**
 * Reads the end tag whose `</` is at `lt`: its lower-case name and the index past its `>`, or
 * `undefined` when `</` is not followed by a letter (then it is text).
 */
export function readEndTag(src: string, lt: number): { name: string; end: number } | undefined {
  if (!isTagStart(src.charCodeAt(lt + 2))) return undefined;
  const j = nameEnd(src, lt + 2, false);
  const close = src.indexOf('>', j);
  return { name: src.slice(lt + 2, j).toLowerCase(), end: close === -1 ? src.length : close + 1 };
}

/**
 * Index just past the end tag `</name ...>` of a raw-text element (script, style, title), and
 * the index where that end tag starts; the source's end when there is none.
 */
export function rawTextEnd(src: string, from: number, name: string): { textEnd: number; end: number } {
  const pattern = new RegExp(`</${name}[\\s/>]`, 'gi');
  pattern.lastIndex = from;
  const match = pattern.exec(src);
  if (!match) return { textEnd: src.length, end: src.length };
  const close = src.indexOf('>', match.index);
  return { textEnd: match.index, end: close === -1 ? src.length : close + 1 };
}
