/**
 * Generates a realistic article page of about the size asked for: site chrome (navigation, a
 * sidebar of links, a footer), then an article of sections with paragraphs, inline links,
 * emphasis, lists, code blocks and tables. Used for extraction tests and the timing of 1 MB.
 */

const WORDS =
  'the server fetches pages for agents and converts them to markdown while guarding every address it dials'.split(
    ' ',
  );

function sentence(seed: number, words = 14): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 3) % WORDS.length]!);
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(n: number): string {
  return `<p>${sentence(n)} <a href="/ref/${n}">Reference ${n}</a> shows <em>why</em> it <strong>matters</strong>. ${sentence(n + 1, 20)} ${sentence(n + 2, 18)}</p>`;
}

function section(n: number): string {
  const items = Array.from({ length: 5 }, (_, i) => `<li>${sentence(n + i, 8)}</li>`).join('');
  const rows = Array.from({ length: 4 }, (_, i) => `<tr><td>row ${i}</td><td>${n * i}</td></tr>`).join('');
  return `<section><h2 id="s${n}">Section ${n}</h2>${paragraph(n)}${paragraph(n + 1)}<ul>${items}</ul>
<pre><code>const answer${n} = fetch("https://example.com/${n}");</code></pre>${paragraph(n + 2)}
<table><thead><tr><th>name</th><th>value</th></tr></thead><tbody>${rows}</tbody></table>${paragraph(n + 3)}</section>`;
}

/** An HTML page of roughly `bytes` bytes whose article Readability should find. */
export function articlePage(bytes: number): string {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/nav/${i}">Nav ${i}</a></li>`).join('');
  const head = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Guarded fetching | Example</title>
<script>window.analytics = function (a, b) { return a < b; };</script><style>body { color: #333 }</style></head>
<body><header class="site-header"><nav><ul>${nav}</ul></nav></header><main><article class="post-content">
<h1>Guarded fetching</h1><p class="byline">By A. Writer</p>`;
  const tail = `</article></main><aside class="sidebar"><ul>${nav}</ul></aside>
<footer class="site-footer"><p>Copyright Example</p></footer></body></html>`;
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let n = 1; size < bytes; n++) {
    const s = section(n);
    parts.push(s);
    size += s.length;
  }
  parts.push(tail);
  return parts.join('\n');
}
