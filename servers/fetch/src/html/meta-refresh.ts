/**
 * Reads the target of `<meta http-equiv="refresh" content="5; url=…">`. The fetch server never
 * follows it (a page could point it at 127.0.0.1 and hope the client obeys); it only reports the
 * URL, and a model that wants it must fetch it again, through the whole guard.
 */

/**
 * The absolute http(s) URL a meta refresh `content` points to, or `undefined` when it points
 * nowhere (a plain reload) or somewhere that is not http(s).
 *
 * @example
 * ```ts
 * resolveMetaRefresh("0; URL='/next'", new URL('https://a.example/x')); // 'https://a.example/next'
 * ```
 */
export function resolveMetaRefresh(content: string | undefined, base: URL): string | undefined {
  if (!content) return undefined;
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let target = (match?.[1] ?? '').trim();
  if (/^['"]/.test(target)) target = target.slice(1).replace(/['"].*$/s, '');
  if (!target) return undefined;
  try {
    const url = new URL(target, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
