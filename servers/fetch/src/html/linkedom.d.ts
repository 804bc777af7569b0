/// <reference lib="dom" />
/**
 * The part of linkedom this server uses, typed against lib.dom. linkedom's own declarations do not
 * type-check against lib.dom (and this package checks library types), so tsconfig `paths` points
 * the compiler here; at run time, and in the bundle, `linkedom` is the real package.
 */

/** Parses an HTML string into a window-like object whose document is a DOM `Document`. */
export function parseHTML(html: string): { document: Document };
