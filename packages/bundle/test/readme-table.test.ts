import { describe, expect, it } from 'vitest';
import {
  effectOf,
  escapeCell,
  firstSentence,
  plainText,
  renderToolsTable,
} from '../src/readme/tools-table.js';

describe('firstSentence', () => {
  it.each([
    ['Lists the notes. Pass the cursor to continue.', 'Lists the notes.'],
    [
      'Finds names that contain a word, e.g. "customer" finds them. Then more.',
      'Finds names that contain a word, e.g. "customer" finds them.',
    ],
    ['Reads up to 1.5 MB per call. Binary files are refused.', 'Reads up to 1.5 MB per call.'],
    ['Runs `a. B` safely. More.', 'Runs `a. B` safely.'],
    ['Works with the stash. "list" shows the entries.', 'Works with the stash.'],
    [
      'Deletes one note (clients that cannot ask need confirm: true). Then more.',
      'Deletes one note (clients that cannot ask need confirm: true).',
    ],
    ['No period at all', 'No period at all'],
    ['Spans\ntwo lines.  Second.', 'Spans two lines.'],
    ['Is it safe? Yes.', 'Is it safe?'],
    [
      'Lists branches, with their upstream. contains / not_contains filter them.',
      'Lists branches, with their upstream.',
    ],
    ['Compares a and b, i.e. both. Then more.', 'Compares a and b, i.e. both.'],
  ])('%j → %j', (text, expected) => {
    expect(firstSentence(text)).toBe(expected);
  });
});

describe('escapeCell', () => {
  it('escapes pipes and folds line breaks so a cell cannot break the table', () => {
    expect(escapeCell('a | b\r\n  c\nd')).toBe('a \\| b c d');
  });
});

describe('plainText', () => {
  it('keeps tags, emphasis and edge underscores from being read as markdown', () => {
    expect(plainText('Use <name> with *.ts or _x_ in read_text_file.')).toBe(
      'Use \\<name> with \\*.ts or \\_x\\_ in read_text_file.',
    );
  });
});

describe('effectOf', () => {
  it('reads the hints with the spec’s defaults', () => {
    expect(effectOf({ name: 't', annotations: { readOnlyHint: true, destructiveHint: true } })).toBe(
      'read-only',
    );
    expect(effectOf({ name: 't', annotations: { readOnlyHint: false, destructiveHint: false } })).toBe(
      'writes',
    );
    expect(effectOf({ name: 't', annotations: { readOnlyHint: false } })).toBe('destructive');
    expect(effectOf({ name: 't' })).toBe('destructive');
  });
});

describe('renderToolsTable', () => {
  const tools = [
    {
      name: 'read_note',
      title: 'Read a note',
      description: 'Returns the text of one note. Notes are UTF-8.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'pipe_tool',
      title: 'Pipes',
      description: 'Splits on a | b\nand more',
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    {
      name: 'fetch_it',
      title: 'Fetch it',
      description: '',
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: 'drop',
      description: 'Drops everything.',
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
  ];

  it('has one row per tool in order, with its effect and a legend of the terms used', () => {
    expect(renderToolsTable(tools)).toBe(
      [
        '| tool | what it does | changes |',
        '|---|---|---|',
        '| `read_note` | Returns the text of one note. | read-only |',
        '| `pipe_tool` | Splits on a \\| b and more | writes |',
        '| `fetch_it` | Fetch it | read-only, open world |',
        '| `drop` | Drops everything. | destructive |',
        '',
        'Read-only: changes nothing; writes: makes changes, but overwrites and deletes nothing; destructive: may overwrite or delete; open world: reaches systems beyond the data it was given, such as the internet.',
      ].join('\n'),
    );
  });

  it('names only the terms its tools use', () => {
    const table = renderToolsTable([tools[0]!]);
    expect(table.endsWith('\n\nRead-only: changes nothing.')).toBe(true);
  });

  it('is the same text every time (no dates, no ordering by chance)', () => {
    expect(renderToolsTable(tools)).toBe(renderToolsTable(structuredClone(tools)));
  });

  it('says so when there are no tools', () => {
    expect(renderToolsTable([])).toBe('This server has no tools.');
  });
});
