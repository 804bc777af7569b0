/**
 * Module specifiers in emitted JavaScript. tsc writes each top-level `import`/`export … from` at
 * the start of a line, so anchoring there skips JSDoc examples (their lines start with ` * `);
 * dynamic `import('…')` and `require('…')` are matched anywhere.
 */

const PATTERNS: RegExp[] = [
  // import x from 'a'; import { a, b } from 'a' (over several lines); export * from 'a'.
  /^(?:import|export)\s[^'";]*?\bfrom\s*(['"])([^'"\n]+)\1/gm,
  // import 'a' (side effects only).
  /^import\s*(['"])([^'"\n]+)\1/gm,
  /\bimport\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  /\brequire(?:\.resolve)?\(\s*(['"])([^'"\n]+)\1\s*\)/g,
];

/** Every specifier `code` imports, in order of first appearance, without duplicates. */
export function specifiersIn(code: string): string[] {
  const found = new Set<string>();
  for (const pattern of PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      if (match[2] !== undefined) found.add(match[2]);
    }
  }
  return [...found];
}

/** True for `./x`, `../x` and absolute paths: files, not packages. */
export function isRelative(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('/');
}

/** The package a bare specifier names: `@scope/name` or `name`, without the subpath. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The subpath a bare specifier asks of its package, in `exports` form (`.` or `./sub`). */
export function subpathOf(specifier: string): string {
  const rest = specifier.slice(packageOf(specifier).length);
  return rest === '' ? '.' : `.${rest}`;
}
