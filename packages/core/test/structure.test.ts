import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The shape of core's source: no module depends on itself through others (type-only imports
// count: they tie the modules' meaning together just the same). File length and naming are held
// for the whole workspace by test/packaging's workspace test.
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative imports and re-exports of a module, as absolute `.ts` paths. */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/g)].map(
    (m) => m[1] as string,
  );
  return specifiers.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Every cycle in a graph, each as the path that closes it (first node repeated at the end). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe("core's source", () => {
  const files = sources(SRC);
  const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]));

  it('has no import cycle', () => {
    const named = cyclesOf(graph).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
    expect(named).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('finds a cycle through type-only imports and re-exports, and none in a tree', () => {
    const a = '/x/a.ts';
    const text = "import type { B } from './b.js';\nexport { c } from './c.js';\n";
    expect(importsOf(a, text)).toEqual(['/x/b.ts', '/x/c.ts']);
    const cyclic = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(cyclesOf(cyclic)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });
});
