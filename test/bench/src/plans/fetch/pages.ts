/**
 * The pages the fetch bench serves: a long article (about 1 MB of HTML, most of it the article's
 * paragraphs, the rest the navigation, sidebars and footers Readability must strip) and small pages
 * of about 5 KB. Seeded, so every machine serves the same bytes.
 */
import { seededRandom } from '../filesystem/fixtures.js';

const WORDS =
  'model context protocol server client tool resource prompt sampling session transport stream cursor page cache revalidate network address policy redirect deadline markdown article reader'.split(
    ' ',
  );

type Random = () => number;

function sentence(random: Random): string {
  const n = 8 + Math.floor(random() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(random: Random): string {
  const n = 3 + Math.floor(random() * 5);
  return `<p>${Array.from({ length: n }, () => sentence(random)).join(' ')} <a href="/page/${Math.floor(random() * 100)}">more</a></p>`;
}

function chrome(random: Random, links: number): string {
  const items = Array.from(
    { length: links },
    (_, i) => `<li><a href="/section/${i}">${sentence(random).slice(0, 24)}</a></li>`,
  ).join('');
  return `<nav class="site-nav"><ul>${items}</ul></nav>`;
}

function page(title: string, body: string, random: Random): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${title}</title><style>.ad{display:none}</style><script>window.analytics = [];</script></head><body>`,
    chrome(random, 40),
    '<aside class="ad">Sponsored: buy more servers</aside>',
    `<main><article><h1>${title}</h1>${body}</article></main>`,
    `<footer>${chrome(random, 20)}<p>© Bench Press</p></footer>`,
    '</body></html>',
  ].join('\n');
}

/** An article of about `bytes` of HTML, with headings every few paragraphs and a code block or two. */
export function articlePage(seed: number, bytes: number): string {
  const random = seededRandom(seed);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part =
      i % 12 === 0
        ? `<h2>Part ${i / 12 + 1}: ${sentence(random)}</h2>`
        : i % 40 === 7
          ? `<pre><code>const page = await fetch(url); // ${sentence(random)}</code></pre>`
          : paragraph(random);
    parts.push(part);
    size += part.length;
  }
  return page('A very long article', parts.join('\n'), random);
}

/** A small page of about 5 KB: a short article in the same chrome. */
export function smallPage(seed: number, index: number): string {
  const random = seededRandom(seed * 1000 + index);
  const body = Array.from({ length: 6 }, () => paragraph(random)).join('\n');
  return page(`Small page ${index}`, body, random);
}
