export { type BinaryTooLarge, base64Length, isTooLarge, limitBinary } from './limitBinary.js';
export type { Continuation, ShownPart } from './marker.js';
export { OutputBudget } from './outputBudget.js';
export {
  DEFAULT_OUTPUT_LIMIT_BYTES,
  MAX_OUTPUT_LIMIT_BYTES,
  MIN_OUTPUT_LIMIT_BYTES,
  OUTPUT_LIMIT_ENV,
  resolveOutputLimit,
} from './outputLimit.js';
export {
  type ShownLines,
  type TruncatedLines,
  type TruncateLinesOptions,
  truncateLines,
} from './truncateLines.js';
export { type TruncatedText, type TruncateTextOptions, truncateText } from './truncateText.js';
export { utf8ByteLength, utf8Prefix } from './utf8.js';
