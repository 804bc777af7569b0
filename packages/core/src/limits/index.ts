/**
 * Output limits: every tool result and resource read is bounded, and says when it was cut and how
 * to get the rest. Core applies the app's budget on its own; these are for a tool that pages.
 */
export { type BinaryTooLarge, base64Length, limitBinary } from './limit-binary.js';
export type { Continuation, ShownPart } from './marker.js';
export { OutputBudget } from './output-budget.js';
export {
  type ShownLines,
  type TruncatedLines,
  type TruncateLinesOptions,
  truncateLines,
} from './truncate-lines.js';
export { type TruncatedText, type TruncateTextOptions, truncateText } from './truncate-text.js';
export { utf8ByteLength, utf8Prefix } from './utf8.js';
