export { type BinaryTooLarge, base64Length, isTooLarge, limitBinary } from './limit-binary.js';
export type { Continuation, ShownPart } from './marker.js';
export { OutputBudget } from './output-budget.js';
export {
  DEFAULT_OUTPUT_LIMIT_BYTES,
  MAX_OUTPUT_LIMIT_BYTES,
  MIN_OUTPUT_LIMIT_BYTES,
  OUTPUT_LIMIT_ENV,
  resolveOutputLimit,
} from './output-limit.js';
export {
  type ShownLines,
  type TruncatedLines,
  type TruncateLinesOptions,
  truncateLines,
} from './truncate-lines.js';
export { type TruncatedText, type TruncateTextOptions, truncateText } from './truncate-text.js';
export { utf8ByteLength, utf8Prefix } from './utf8.js';
