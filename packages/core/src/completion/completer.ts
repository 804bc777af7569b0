import { matchCompletions } from './rank.js';

/** What the SDK passes to a completion callback: the arguments the user has already filled in. */
export interface CompletionContext {
  arguments?: Record<string, string>;
}

/** Produces raw candidates for one argument; ranking and capping are done for it. */
export type CompletionSource = (
  value: string,
  context?: CompletionContext,
) => Iterable<string> | Promise<Iterable<string>>;

/** A callback in the shape `completable(schema, cb)` and `ResourceTemplate`'s `complete` expect. */
export type CompletionCallback = (
  value: string | undefined,
  context?: CompletionContext,
) => Promise<string[]>;

export interface CompleterOptions {
  /**
   * Return at most this many values. Leave it unset to let the SDK cut at 100: it derives `total`
   * and `hasMore` from the length of what we return, so cutting here would under-report `total`.
   */
  max?: number;
}

/**
 * Wraps a candidate source so the SDK always gets ranked, deduplicated values: the SDK caps
 * completions at 100 but does no filtering, so without this a client typing `ma` would be offered
 * the first 100 candidates whatever they are. The source may use `context.arguments` to depend on
 * arguments already chosen (the files of the chosen directory, the tables of the chosen schema).
 *
 * @example
 * ```ts
 * import { completable } from '@modelcontextprotocol/server';
 * const files: Record<string, string[]> = { main: ['README.md', 'src/index.ts'], dev: ['NOTES.md'] };
 * const argsSchema = z.object({
 *   branch: completable(z.string(), completer(() => Object.keys(files))),
 *   file: completable(z.string(), completer((_v, ctx) => files[ctx?.arguments?.branch ?? 'main'] ?? [])),
 * });
 * ```
 */
export function completer(source: CompletionSource, options: CompleterOptions = {}): CompletionCallback {
  const limit = options.max === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(options.max));
  return async (value, context) => {
    // Clients send `value` as typed; a missing one means "nothing typed yet".
    const typed = typeof value === 'string' ? value : '';
    return matchCompletions(await source(typed, context), typed, limit).values;
  };
}
