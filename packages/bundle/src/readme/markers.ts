/**
 * The marked sections of a README: `<!-- generated:NAME -->` … `<!-- /generated:NAME -->`, each
 * marker on a line of its own. Authors place the markers (where a section goes is an editorial
 * choice); the generator only ever rewrites what lies between them.
 */

/** A marked section: where its content (the lines between the two markers) starts and ends. */
export interface MarkedSection {
  name: string;
  /** Offset just after the opening marker's line break. */
  start: number;
  /** Offset of the closing marker's line. */
  end: number;
}

const OPEN = /^<!--\s*generated:([a-z][a-z0-9-]*)\s*-->\s*$/;
const CLOSE = /^<!--\s*\/generated:([a-z][a-z0-9-]*)\s*-->\s*$/;
/** A fenced code block may show markers as an example; those are not sections. */
const FENCE = /^\s{0,3}(```|~~~)/;

export const openMarker = (name: string): string => `<!-- generated:${name} -->`;
export const closeMarker = (name: string): string => `<!-- /generated:${name} -->`;

/** Thrown for markers that cannot be read as sections; the message is one sentence for the author. */
export class MarkerError extends Error {}

/**
 * Finds the marked sections of `text`, in order. Refuses unknown names, a section opened twice,
 * nested or unclosed sections and a closing marker without its opening one.
 */
export function findSections(text: string, known: readonly string[], file = 'README.md'): MarkedSection[] {
  const sections: MarkedSection[] = [];
  let open: { name: string; start: number } | undefined;
  let fence: string | undefined;
  let offset = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const lineStart = offset;
    offset += raw.length + 1;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      if (fence === undefined) fence = fenceMatch[1];
      else if (fenceMatch[1] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const opening = OPEN.exec(line)?.[1];
    const closing = CLOSE.exec(line)?.[1];
    const name = opening ?? closing;
    if (name === undefined) continue;
    if (!known.includes(name)) {
      throw new MarkerError(
        `${file} marks a section "${name}" that cannot be generated; the known sections are ${known.join(' and ')}.`,
      );
    }
    if (opening !== undefined) {
      if (open !== undefined) {
        throw new MarkerError(
          `${file} opens the generated section "${name}" inside "${open.name}"; add ${closeMarker(open.name)} before it.`,
        );
      }
      if (sections.some((s) => s.name === name)) {
        throw new MarkerError(
          `${file} marks the generated section "${name}" twice; keep one pair of markers.`,
        );
      }
      open = { name, start: Math.min(offset, text.length) };
    } else {
      if (open?.name !== name) {
        throw new MarkerError(`${file} has ${closeMarker(name)} without ${openMarker(name)} before it.`);
      }
      sections.push({ name, start: open.start, end: lineStart });
      open = undefined;
    }
  }
  if (open !== undefined) {
    throw new MarkerError(
      `${file} opens the generated section "${open.name}" but never closes it; add ${closeMarker(open.name)}.`,
    );
  }
  return sections;
}

/** The names in `required` that `sections` lacks, as one sentence saying which markers to add; undefined when none. */
export function missingMarkers(
  sections: readonly MarkedSection[],
  required: readonly string[],
  file = 'README.md',
): string | undefined {
  const missing = required.filter((name) => !sections.some((s) => s.name === name));
  if (missing.length === 0) return undefined;
  const pairs = missing.map((name) => `${openMarker(name)} … ${closeMarker(name)}`).join(' and ');
  return `${file} has no place for the generated ${missing.join(' and ')} section${missing.length > 1 ? 's' : ''}; add ${pairs}, each marker on a line of its own, where ${missing.length > 1 ? 'they belong' : 'it belongs'}.`;
}

/** `text` with each section's content replaced by `contents[name]` (sections not named are kept). */
export function replaceSections(
  text: string,
  sections: readonly MarkedSection[],
  contents: Readonly<Record<string, string>>,
): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let out = '';
  let at = 0;
  for (const section of sections) {
    const content = contents[section.name];
    if (content === undefined) continue;
    out += text.slice(at, section.start) + content.replace(/\n/g, eol);
    at = section.end;
  }
  return out + text.slice(at);
}

/** The current content of one section, line breaks as `\n`. */
export function sectionContent(text: string, section: MarkedSection): string {
  return text.slice(section.start, section.end).replace(/\r\n/g, '\n');
}
