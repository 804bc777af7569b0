/**
 * Matching one name (a single path segment) against the atoms of a glob segment. A search tests
 * every entry of a tree, so this runs tens of thousands of times per call: it works on the string
 * as it is (no array of characters per test) and compiles the common shapes (`*.ts`, `index.*`,
 * a literal name) down to `startsWith`, `endsWith` and `indexOf`.
 */

/** One element of a name pattern. `ch` is a whole code point (already lower-cased when ignoring case). */
export type Atom =
  | { kind: 'char'; ch: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; singles: string; ranges: [string, string][] };

/** Tests one name (already lower-cased when the glob ignores case). */
export type NameTest = (name: string) => boolean;

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Compiles the atoms of one segment. Stars and plain characters only (the usual case) become
 * literal pieces found in order; anything else runs the greedy wildcard algorithm over code points.
 */
export function compileName(atoms: readonly Atom[], nocase: boolean): NameTest {
  const pieces = literalPieces(atoms);
  if (pieces) return piecesTest(pieces);
  return (name) => matchAtoms(atoms, name, nocase);
}

/**
 * The literal runs between stars, or undefined when an atom is not a star or a plain single-unit
 * character. Surrogates are left to the general matcher: a piece holding half of a pair could
 * match inside a character, which the code-point matcher never does.
 */
function literalPieces(atoms: readonly Atom[]): string[] | undefined {
  const pieces = [''];
  for (const atom of atoms) {
    if (atom.kind === 'star') pieces.push('');
    else if (atom.kind === 'char' && atom.ch.length === 1 && !SURROGATE.test(atom.ch))
      pieces[pieces.length - 1] += atom.ch;
    else return undefined;
  }
  return pieces;
}

// `a*b*c` as pieces ['a', 'b', 'c']: a prefix, a suffix, and middle pieces found left to right.
// Taking each middle piece at its first occurrence is always right when only stars lie between
// pieces, so this is linear in the name (times the piece length for indexOf).
function piecesTest(pieces: readonly string[]): NameTest {
  const first = pieces[0]!;
  if (pieces.length === 1) return (name) => name === first;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  const fixed = first.length + last.length;
  if (middle.length === 0) {
    return (name) => name.length >= fixed && name.startsWith(first) && name.endsWith(last);
  }
  return (name) => {
    if (name.length < fixed || !name.startsWith(first) || !name.endsWith(last)) return false;
    const end = name.length - last.length;
    let at = first.length;
    for (const piece of middle) {
      const found = name.indexOf(piece, at);
      if (found < 0 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/** UTF-16 units of the code point at `i`. */
function widthAt(text: string, i: number): number {
  return (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
}

function matchesOne(atom: Atom, text: string, at: number, width: number, nocase: boolean): boolean {
  switch (atom.kind) {
    case 'char':
      return atom.ch.length === width && text.startsWith(atom.ch, at);
    case 'any':
      return true;
    case 'class': {
      const ch = text.slice(at, at + width);
      const inClass = (c: string) =>
        atom.singles.includes(c) || atom.ranges.some(([a, b]) => c >= a && c <= b);
      const hit = inClass(ch) || (nocase && inClass(ch.toUpperCase()));
      return hit !== atom.negated;
    }
    default:
      return false;
  }
}

/**
 * The greedy wildcard algorithm over the code points of `text`: on a mismatch, go back to the last
 * star and let it take one more character. Each (pattern position, text position) pair is visited
 * at most once per star, so the work is bounded by the product of the lengths, never exponential.
 */
function matchAtoms(atoms: readonly Atom[], text: string, nocase: boolean): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const atom = atoms[p];
    if (atom?.kind === 'star') {
      starP = p++;
      starT = t;
      continue;
    }
    const width = widthAt(text, t);
    if (atom !== undefined && matchesOne(atom, text, t, width, nocase)) {
      p++;
      t += width;
    } else if (starP >= 0) {
      p = starP + 1;
      starT += widthAt(text, starT);
      t = starT;
    } else {
      return false;
    }
  }
  while (atoms[p]?.kind === 'star') p++;
  return p === atoms.length;
}
