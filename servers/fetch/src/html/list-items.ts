/**
 * The Markdown of a list item, as Turndown writes it, with the number of an ordered item found
 * in constant time. Turndown's own rule finds an item's number by searching `parent.children`,
 * which linkedom builds afresh by walking the whole list each time it is read: numbering a list
 * of n items took n² steps (an `<ol>` of 30 000 items, 150 KB, took 52 s, and the 60 000 the
 * element cap lets through hit the conversion deadline). Here a list's items are numbered once,
 * when its first item asks, and looked up after that; the Markdown is the same.
 */
import type TurndownService from 'turndown';

/** The position of each element child of a list, by list; filled on first use. */
const positions = new WeakMap<Element, Map<Element, number>>();

/** The 0-based position of `item` among the element children of `list`. */
function positionIn(list: Element, item: Element): number {
  let known = positions.get(list);
  if (!known) {
    known = new Map();
    let position = 0;
    for (let child = list.firstElementChild; child; child = child.nextElementSibling)
      known.set(child, position++);
    positions.set(list, known);
  }
  return known.get(item) ?? 0;
}

/** `text` without the line breaks at its start and end. */
function trimLineBreaks(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

/**
 * The rule for `<li>`: a bullet, or the item's number in an `<ol>` (counted from its `start`),
 * then the item's content, every further line indented to the marker's width.
 *
 * @example
 * ```ts
 * turndown.addRule('listItem', listItemRule);
 * ```
 */
export const listItemRule: TurndownService.Rule = {
  filter: 'li',
  replacement(content, node, options) {
    const list = node.parentNode as Element | null;
    let marker = `${options.bulletListMarker}   `;
    if (list?.nodeName === 'OL') {
      const start = list.getAttribute('start');
      const position = positionIn(list, node);
      marker = `${start ? Number(start) + position : position + 1}.  `;
    }
    // An item whose content ends a block (a paragraph inside it) keeps one line break.
    const text = trimLineBreaks(content) + (content.endsWith('\n') ? '\n' : '');
    const indented = text.replaceAll('\n', `\n${' '.repeat(marker.length)}`);
    return marker + indented + (node.nextSibling ? '\n' : '');
  },
};
