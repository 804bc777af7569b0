/**
 * Fills, or checks, the generated sections of a server's README from its built description.
 * The install section is core's `installMarkdown`, the same code the server's `config` command
 * prints host entries with, so the README and the command cannot disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installMarkdown } from '@mcpkit/core/install';
import { loadLaunchSpec, loadTools, readManifest } from './describe.js';
import { findSections, MarkerError, missingMarkers, replaceSections, sectionContent } from './markers.js';
import { renderToolsTable } from './tools-table.js';

/** The sections the generator writes, in the order a check reports them. */
export const SECTIONS = ['tools', 'install'] as const;
export type SectionName = (typeof SECTIONS)[number];

const SOURCES: Record<SectionName, string> = {
  tools: 'the tool definitions (src/tools)',
  install: 'the server’s command line (src/cli.ts) and core’s host entries',
};

/** The text between a section's markers: a note for editors, then the generated markdown. */
export function sectionText(name: SectionName, markdown: string): string {
  const note = `<!-- Generated from ${SOURCES[name]} by mcpkit-bundle readme; edits here are overwritten. -->`;
  return `${note}\n\n${markdown.trim()}\n\n`;
}

/** Every generated section's content for the package in `dir`. */
export async function generateSections(dir: string): Promise<Record<SectionName, string>> {
  const manifest = readManifest(dir);
  const tools = await loadTools(dir);
  const spec = await loadLaunchSpec(dir, manifest);
  return {
    tools: sectionText('tools', renderToolsTable(tools)),
    install: sectionText('install', installMarkdown(spec)),
  };
}

export interface ReadmeResult {
  /** The sections whose content differs from what the description makes now, in README order. */
  stale: SectionName[];
  /** True when README.md was rewritten (never in check mode). */
  written: boolean;
}

/** Reads README.md in `dir`, refusing one without both pairs of markers or with broken ones. */
function readReadme(dir: string): { text: string; sections: ReturnType<typeof findSections> } {
  let text: string;
  try {
    text = readFileSync(join(dir, 'README.md'), 'utf8');
  } catch {
    throw new MarkerError(
      'There is no README.md here; run mcpkit-bundle readme from the server’s package folder.',
    );
  }
  const sections = findSections(text, SECTIONS);
  const missing = missingMarkers(sections, SECTIONS);
  if (missing !== undefined) throw new MarkerError(missing);
  return { text, sections };
}

/**
 * Regenerates the README of the package in `dir`. With `check`, writes nothing and only reports
 * which sections are stale. The README's markers are read before the build is imported, so a
 * README without them is refused without loading anything.
 */
export async function updateReadme(dir: string, options: { check?: boolean } = {}): Promise<ReadmeResult> {
  const { text, sections } = readReadme(dir);
  const contents = await generateSections(dir);
  const stale = sections
    .filter((s) => sectionContent(text, s) !== contents[s.name as SectionName])
    .map((s) => s.name as SectionName);
  if (options.check || stale.length === 0) return { stale, written: false };
  writeFileSync(join(dir, 'README.md'), replaceSections(text, sections, contents));
  return { stale, written: true };
}
