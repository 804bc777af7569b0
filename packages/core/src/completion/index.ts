/**
 * Completion: candidates ranked (prefix matches first, then substring, case-insensitive) and
 * capped. A definition's `complete` sources go through this on their own; `completer` is for a
 * handler registered on the SDK directly.
 */
export {
  type CompleterOptions,
  type CompletionCallback,
  type CompletionContext,
  type CompletionSource,
  completer,
} from './completer.js';
export { type RankedCompletions, type RankOptions, rankCompletions } from './rank.js';
