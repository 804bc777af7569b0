/**
 * windows-1252 as the WHATWG Encoding Standard defines it, for bytes 0x80–0x9F. Node's TextDecoder
 * (20.18.3 and later 20.x, 22.13.0 and later 22.x: nodejs/node#60888) decodes every label of it
 * (`windows-1252`, `latin1`, `iso-8859-1`, `ascii`…) as ISO-8859-1, so the euro sign, the curly
 * quotes and the dashes of old Western pages come out as invisible C1 control characters. The
 * decoder's output is mapped here instead: each of those bytes became the control character of
 * the same number, so the mapping is exact, and on a Node that decodes correctly it changes nothing
 * (the five bytes the standard leaves as control characters map to themselves).
 */

/** The standard's code points for bytes 0x80 to 0x9F, in order. */
const HIGH_CONTROLS = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152,
  0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122,
  0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

const C1 = /[\u0080-\u009f]/g;

/**
 * Text a windows-1252 TextDecoder made, with 0x80–0x9F as the standard has them.
 *
 * @example
 * ```ts
 * windows1252(new TextDecoder('windows-1252').decode(Uint8Array.of(0x80, 0x35))); // '€5'
 * ```
 */
export function windows1252(decoded: string): string {
  return decoded.replace(C1, (char) =>
    String.fromCharCode(HIGH_CONTROLS[char.charCodeAt(0) - 0x80] ?? 0xfffd),
  );
}
