export {
  type CompleterOptions,
  type CompletionCallback,
  type CompletionContext,
  type CompletionSource,
  completer,
} from './completer.js';
export { MAX_COMPLETION_VALUES, type RankedCompletions, type RankOptions, rankCompletions } from './rank.js';
