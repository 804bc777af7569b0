/**
 * @internal A call's own signal: it follows its sources (the client's cancel, the app closing) for
 * as long as the call runs, and lets go of them when it ends. `AbortSignal.any` would follow them
 * too, but on Node 20 a long-lived source (the app's signal) keeps every signal ever made from it:
 * one per call, for the life of the process.
 */

/** A call's signal, and the means to stop it following its sources. */
export interface CallSignal {
  /** Aborted, with the source's own reason, by the first source to abort while the call runs. */
  readonly signal: AbortSignal;
  /** The call has ended: no source holds anything of it any more. Safe to call more than once. */
  release(): void;
}

/**
 * A signal that follows `sources` until released. A source already aborted aborts it at once, with
 * that source's reason (the first such one in the list), as `AbortSignal.any` does.
 */
export function callSignal(sources: readonly AbortSignal[]): CallSignal {
  const own = new AbortController();
  const aborted = sources.find((source) => source.aborted);
  if (aborted) {
    own.abort(aborted.reason);
    return { signal: own.signal, release: () => {} };
  }
  const release = () => {
    for (const source of sources) source.removeEventListener('abort', follow);
  };
  // One listener for every source: whichever fires first decides the reason, and the others are
  // let go at once, since an aborted signal never fires again.
  function follow(this: AbortSignal): void {
    release();
    own.abort(this.reason);
  }
  for (const source of sources) source.addEventListener('abort', follow, { once: true });
  return { signal: own.signal, release };
}
