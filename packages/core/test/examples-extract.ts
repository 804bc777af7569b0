/**
 * The pieces of the JSDoc example check (see examples.test.ts): the ```ts blocks of `@example`
 * tags, the names a block has in scope, the module written for each block, and tsc's diagnostics
 * mapped back to the comment they came from.
 */

/** One ```ts block of an `@example` tag. */
export interface Example {
  /** The documented file, relative to the package (`src/limits/utf8.ts`). */
  file: string;
  /** The 1-based line, in that file, of the block's first line of code. */
  line: number;
  /** The code, without the comment's leading ` * `. */
  code: string;
  /** How many characters of comment prefix each code line had, for mapping columns back. */
  prefixes: number[];
}

/** A name a module brings into scope; a type-only one is imported with `type`. */
export interface Name {
  name: string;
  typeOnly: boolean;
}

const FENCE_OPEN = /^```(?:ts|typescript)\s*$/;
const FENCE_CLOSE = /^```\s*$/;
const COMMENT_PREFIX = /^\s*\*(?: |$)/;

/** Every ```ts block inside an `@example` tag of a JSDoc comment, in source order. */
export function extractExamples(text: string, file: string): Example[] {
  const examples: Example[] = [];
  const lines = text.split(/\r?\n/);
  let inDoc = false;
  let inExample = false;
  let block: Example | undefined;
  for (const [i, raw] of lines.entries()) {
    if (!inDoc) {
      const start = raw.indexOf('/**');
      if (start === -1 || raw.includes('*/', start + 3)) continue;
      inDoc = true;
      inExample = /@example\b/.test(raw);
      continue;
    }
    const ends = raw.includes('*/');
    const prefix = COMMENT_PREFIX.exec(raw)?.[0].length ?? 0;
    const content = raw.slice(prefix).replace(/\s*\*\/.*$/, '');
    if (block) {
      if (FENCE_CLOSE.test(content.trim())) {
        examples.push(block);
        block = undefined;
      } else if (ends) {
        throw new Error(
          `${file}:${block.line - 1}: an @example's code block is not closed before the comment ends`,
        );
      } else {
        block.code += block.prefixes.length === 0 ? content : `\n${content}`;
        block.prefixes.push(prefix);
      }
    } else if (content.trimStart().startsWith('@')) {
      inExample = /^@example\b/.test(content.trimStart());
    } else if (inExample && FENCE_OPEN.test(content.trim())) {
      block = { file, line: i + 2, code: '', prefixes: [] };
    }
    if (ends) inDoc = inExample = false;
  }
  return examples;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

function listNames(list: string, allTypes: boolean): Name[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const typeOnly = allTypes || item.startsWith('type ');
      const bare = item.replace(/^type\s+/, '');
      return { name: (bare.split(/\s+as\s+/).pop() ?? bare).trim(), typeOnly };
    })
    .filter((n) => IDENT.test(n.name));
}

/**
 * The names a module exports: `export function|class|const|interface|type X` and the names of
 * `export { … }` lists (re-exports included). `export *` is not followed: entries list their names.
 */
export function exportedNames(text: string): Name[] {
  const names: Name[] = [];
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm)) {
    names.push(...listNames(m[2] ?? '', m[1] !== undefined));
  }
  const declaration =
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|const|let|var|enum|interface|type)\s+([A-Za-z_$][\w$]*)/gm;
  for (const m of text.matchAll(declaration)) {
    names.push({ name: m[2] ?? '', typeOnly: m[1] === 'interface' || m[1] === 'type' });
  }
  return names;
}

/**
 * The names a block declares or imports itself, so that its module does not import them too
 * (`export const { defineTool } = withContext<Ctx>()` would otherwise clash with the preamble). A
 * name declared in an inner scope counts as well: the block then simply does without the import.
 */
export function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  const single = /\b(?:const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
  for (const m of code.matchAll(single)) names.add(m[1] ?? '');
  for (const m of code.matchAll(/\b(?:const|let|var)\s*[{[]([^=]*?)[}\]]\s*=/g)) {
    for (const part of (m[1] ?? '').split(',')) {
      const binding = (part.split(':').pop() ?? '').replace(/^\s*\.\.\./, '');
      const name = binding.split('=')[0]?.trim() ?? '';
      if (IDENT.test(name)) names.add(name);
    }
  }
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?([^'";]+?)\s+from\s+['"]/g)) {
    const clause = m[1] ?? '';
    for (const n of listNames(/\{([^}]*)\}/.exec(clause)?.[1] ?? '', false)) names.add(n.name);
    const rest = clause.replace(/\{[^}]*\}/, '').replace(/^\*\s+as\s+/, '');
    for (const part of rest.split(',')) if (IDENT.test(part.trim())) names.add(part.trim());
  }
  return names;
}

function importLine(names: readonly Name[], specifier: string): string {
  const list = names.map((n) => (n.typeOnly ? `type ${n.name}` : n.name)).join(', ');
  return `import { ${list} } from '${specifier}';`;
}

/** What every block's module starts with, and what it may use without importing. */
export interface Scope {
  /** The public entries by their published names (`@mcpkit/core/roots`), each with its names. */
  entries: { specifier: string; names: Name[] }[];
  /** Other lines every module starts with (`import * as z from 'zod';`), keyed by the name they bind. */
  extra: Record<string, string>;
  /** The free variables examples may assume, as `declare const name: Type;` lines keyed by name. */
  free: Record<string, string>;
}

/** A generated module: the preamble, then the block, so that line `offset + k` is the block's line `k`. */
export interface ExampleModule {
  example: Example;
  text: string;
  offset: number;
}

/**
 * The module for one block: the public imports, the other exports of the file it documents (so an
 * internal helper's example can call it, from `own`), the free variables, then the block. Whatever
 * the block declares itself is left out. A relative import in the block means what it would in the
 * documented file; `rebase` turns it into one that works from the generated module.
 */
export function exampleModule(
  example: Example,
  scope: Scope,
  own?: { specifier: string; names: Name[] },
  rebase: (specifier: string) => string = (s) => s,
): ExampleModule {
  const taken = declaredNames(example.code);
  // A class the entries export as a type only (`SubscriptionHub`) is a value in its own module.
  const ownValues = new Set(own?.names.filter((n) => !n.typeOnly).map((n) => n.name));
  const lines: string[] = [];
  const add = (names: Name[], specifier: string) => {
    const kept = names.filter((n) => !taken.has(n.name));
    for (const n of kept) taken.add(n.name);
    if (kept.length > 0) lines.push(importLine(kept, specifier));
  };
  for (const entry of scope.entries)
    add(
      entry.names.filter((n) => !(n.typeOnly && ownValues.has(n.name))),
      entry.specifier,
    );
  if (own) add(own.names, own.specifier);
  for (const [name, line] of [...Object.entries(scope.extra), ...Object.entries(scope.free)]) {
    if (!taken.has(name)) lines.push(line);
    taken.add(name);
  }
  lines.push(`// ${example.file}:${example.line}`);
  const code = example.code.replace(
    /(\bfrom\s+)(['"])(\.\.?\/[^'"]+)\2/g,
    (_m, from: string, quote: string, specifier: string) => `${from}${quote}${rebase(specifier)}${quote}`,
  );
  return { example, text: `${lines.join('\n')}\n${code}\n`, offset: lines.length };
}

const DIAGNOSTIC = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;

/**
 * tsc's `--pretty false` output with each position in a generated module replaced by the line and
 * column of the comment it came from (`src/limits/utf8.ts:14:3 TS2304 Cannot find name 'x'.`).
 * Anything else (a diagnostic in the preamble, a continuation line) is kept as tsc wrote it.
 */
export function mapDiagnostics(output: string, modules: ReadonlyMap<string, ExampleModule>): string[] {
  const mapped: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const m = DIAGNOSTIC.exec(line);
    const file = m?.[1]?.replace(/\\/g, '/').split('/').pop() ?? '';
    const module = modules.get(file);
    const at = Number(m?.[2]) - (module?.offset ?? 0);
    if (!m || !module || at < 1) {
      mapped.push(line);
      continue;
    }
    const { example } = module;
    const column = Number(m[3]) + (example.prefixes[at - 1] ?? 0);
    mapped.push(`${example.file}:${example.line + at - 1}:${column} ${m[5]} ${m[6]}`);
  }
  return mapped;
}
