import { describe, expect, it } from 'vitest';
import {
  findSections,
  MarkerError,
  missingMarkers,
  replaceSections,
  sectionContent,
} from '../src/readme/markers.js';

const KNOWN = ['tools', 'install'];

const README = [
  '# Notes',
  '',
  'Intro prose.',
  '<!-- generated:tools -->',
  'old table',
  '<!-- /generated:tools -->',
  '',
  '## Install',
  '<!-- generated:install -->',
  '<!-- /generated:install -->',
  'Closing prose.',
  '',
].join('\n');

describe('findSections', () => {
  it('finds each pair of markers and the content between them', () => {
    const sections = findSections(README, KNOWN);
    expect(sections.map((s) => s.name)).toEqual(['tools', 'install']);
    expect(sectionContent(README, sections[0]!)).toBe('old table\n');
    expect(sectionContent(README, sections[1]!)).toBe('');
  });

  it('ignores markers shown inside a fenced code block', () => {
    const text = ['```md', '<!-- generated:tools -->', '```', 'prose'].join('\n');
    expect(findSections(text, KNOWN)).toEqual([]);
  });

  it('ignores a marker that shares its line with other text', () => {
    expect(findSections('see <!-- generated:tools --> here\n', KNOWN)).toEqual([]);
  });

  it.each([
    [
      'an unknown section',
      '<!-- generated:prompts -->\n<!-- /generated:prompts -->\n',
      /"prompts".*known sections are tools and install/,
    ],
    ['a section marked twice', `${README}<!-- generated:tools -->\n<!-- /generated:tools -->\n`, /twice/],
    [
      'a nested section',
      '<!-- generated:tools -->\n<!-- generated:install -->\n',
      /inside "tools".*<!-- \/generated:tools -->/,
    ],
    [
      'an unclosed section',
      '<!-- generated:tools -->\ntext\n',
      /never closes it; add <!-- \/generated:tools -->/,
    ],
    ['a close without its open', '<!-- /generated:install -->\n', /without <!-- generated:install -->/],
  ])('refuses %s with one sentence', (_label, text, message) => {
    expect(() => findSections(text, KNOWN)).toThrow(MarkerError);
    expect(() => findSections(text, KNOWN)).toThrow(message);
  });
});

describe('missingMarkers', () => {
  it('says which markers to add', () => {
    const sections = findSections('<!-- generated:tools -->\n<!-- /generated:tools -->\n', KNOWN);
    expect(missingMarkers(sections, KNOWN)).toBe(
      'README.md has no place for the generated install section; add <!-- generated:install --> … <!-- /generated:install -->, each marker on a line of its own, where it belongs.',
    );
    expect(missingMarkers([], KNOWN)).toMatch(/tools and install sections; add <!-- generated:tools -->/);
    expect(missingMarkers(findSections(README, KNOWN), KNOWN)).toBeUndefined();
  });
});

describe('replaceSections', () => {
  it('replaces only what lies between the markers', () => {
    const sections = findSections(README, KNOWN);
    const out = replaceSections(README, sections, { tools: 'new table\n', install: 'entries\n' });
    expect(out).toBe(
      README.replace('old table\n', 'new table\n').replace(
        '<!-- generated:install -->\n',
        '<!-- generated:install -->\nentries\n',
      ),
    );
  });

  it('keeps a README with Windows line ends in that form', () => {
    const crlf = README.replace(/\n/g, '\r\n');
    const sections = findSections(crlf, KNOWN);
    const out = replaceSections(crlf, sections, { tools: 'a\nb\n' });
    expect(out).toContain('<!-- generated:tools -->\r\na\r\nb\r\n<!-- /generated:tools -->\r\n');
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });
});
