/**
 * windows-1252 (the label a server sends, and what `latin1`, `iso-8859-1` and `ascii` mean on the
 * web) decodes bytes 0x80–0x9F as the Encoding Standard has them: the euro sign, curly quotes,
 * dashes, whichever Node's own TextDecoder does with them. Every other byte is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { decodePage } from '../src/html/html-type.js';

/** “Smart” – quotes… cost €5 ™, then the five bytes the standard keeps as control characters. */
const BYTES = Uint8Array.from([
  0x93, 0x53, 0x6d, 0x61, 0x72, 0x74, 0x94, 0x20, 0x96, 0x20, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x73, 0x85, 0x20,
  0x80, 0x35, 0x20, 0x99, 0x20, 0xe9, 0x81, 0x8d, 0x8f, 0x90, 0x9d,
]);
const TEXT = '“Smart” – quotes… €5 ™ é\u0081\u008d\u008f\u0090\u009d';

describe('windows-1252', () => {
  it.each(['windows-1252', 'latin1', 'ISO-8859-1', 'us-ascii', 'cp1252'])(
    'is what charset=%s decodes as, the high controls included',
    (label) => {
      expect(decodePage(BYTES, `text/plain; charset=${label}`).text).toBe(TEXT);
    },
  );

  it('is what a <meta charset> and an XML declaration name', () => {
    const html = Uint8Array.from([...new TextEncoder().encode('<meta charset="windows-1252"><p>'), 0x80]);
    expect(decodePage(html, 'text/html').text.endsWith('<p>€')).toBe(true);
    const xml = Uint8Array.from([
      ...new TextEncoder().encode('<?xml version="1.0" encoding="latin1"?><a>'),
      0x96,
    ]);
    expect(decodePage(xml, 'application/xml').text.endsWith('<a>–')).toBe(true);
  });

  it('leaves other single-byte encodings alone', () => {
    expect(decodePage(Uint8Array.of(0x80, 0xa4), 'text/plain; charset=iso-8859-15').text).toBe('\u0080€');
  });
});
