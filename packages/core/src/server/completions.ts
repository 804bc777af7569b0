/** @internal A definition's completion sources, as the SDK takes them. */
import { completer } from '../completion/completer.js';
import { errorMessage } from '../errors/index.js';
import type { Complete, Lookup } from './types.js';

/** A definition's completion sources as the SDK takes them: ranked, capped, bound to the instance. */
export function completions(
  sources: Record<string, Complete<unknown> | undefined> | undefined,
  lookup: Lookup<unknown>,
): Record<string, ReturnType<typeof completer>> {
  const out: Record<string, ReturnType<typeof completer>> = {};
  for (const [name, source] of Object.entries(sources ?? {})) {
    if (!source) continue;
    out[name] = completer(async (typed, context) => {
      try {
        return await source(typed, lookup, context);
      } catch (error) {
        // A completion is a convenience: one that fails offers nothing, and says why only in the log.
        lookup.app.log.debug(`completing ${name} failed: ${errorMessage(error)}`);
        return [];
      }
    });
  }
  return out;
}
