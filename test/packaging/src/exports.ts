/**
 * Reading a package's `exports` map: which subpaths it offers and which files each condition
 * points at.
 */

export interface ExportTarget {
  subpath: string;
  /** The condition chain that leads to the file, e.g. `types` or `import/default`. */
  condition: string;
  file: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Flattens `exports` into one entry per (subpath, condition chain, file). */
export function exportTargets(exports: unknown): ExportTarget[] {
  if (typeof exports === 'string') return [{ subpath: '.', condition: 'default', file: exports }];
  if (!isRecord(exports)) return [];
  const keys = Object.keys(exports);
  // A map of conditions only (no "./…" keys) is the "." entry.
  const bySubpath = keys.every((k) => k.startsWith('.')) ? exports : { '.': exports };
  const targets: ExportTarget[] = [];
  const walk = (subpath: string, value: unknown, chain: string[]) => {
    if (typeof value === 'string') {
      targets.push({ subpath, condition: chain.join('/') || 'default', file: value });
    } else if (Array.isArray(value)) {
      for (const v of value) walk(subpath, v, chain);
    } else if (isRecord(value)) {
      for (const [condition, v] of Object.entries(value)) walk(subpath, v, [...chain, condition]);
    }
  };
  for (const [subpath, value] of Object.entries(bySubpath)) walk(subpath, value, []);
  return targets;
}

/** The subpaths a package offers. */
export function exportedSubpaths(exports: unknown): string[] {
  return [...new Set(exportTargets(exports).map((t) => t.subpath))];
}
