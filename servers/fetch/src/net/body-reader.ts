/**
 * Reads a response body under a byte cap counted on the decompressed stream. `fetch()` inflates
 * gzip, deflate and brotli transparently and `Content-Length` is the compressed size, so only the
 * bytes that come out of the stream can be trusted: a 1 MB gzip bomb inflating to 1 GB is cut at
 * the cap. Stopping early cancels the stream, which closes the connection.
 */
import { UserError } from '@mcpkit/core/errors';

/** Progress of one download: bytes received so far, and the total when the server declared it. */
export interface FetchProgress {
  received: number;
  /** Content-Length, only when the body is not content-coded (otherwise it counts other bytes). */
  total?: number;
}

/** How {@link limitedChunks} reads. */
export interface LimitedReadOptions {
  maxBytes: number;
  /** Stop at the cap and keep what fits instead of refusing the response. */
  truncate?: boolean;
  onProgress?: (progress: FetchProgress) => void;
  total?: number;
  /** For messages. */
  url: URL;
}

/** The part of a web ReadableStream of bytes this reader uses (undici's and lib.dom's both fit). */
export interface ByteStream {
  getReader(): {
    read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/** Bytes read so far, and whether the cap cut the body. */
export interface ReadState {
  received: number;
  truncated: boolean;
}

/**
 * Yields the chunks of `body` until it ends or the cap is reached. Past the cap it throws a
 * {@link UserError}, or with `truncate` yields the part that fits and stops. Leaving early (a
 * `break`, an error) cancels the stream.
 */
export async function* limitedChunks(
  body: ByteStream,
  options: LimitedReadOptions,
  state: ReadState,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      let chunk = value;
      if (state.received + chunk.byteLength > options.maxBytes) {
        if (!options.truncate)
          throw new UserError(
            `The response from ${options.url.host} is larger than ${options.maxBytes} bytes, so it was not read; fetch a smaller resource.`,
          );
        chunk = chunk.subarray(0, options.maxBytes - state.received);
        state.truncated = true;
      }
      state.received += chunk.byteLength;
      options.onProgress?.({
        received: state.received,
        ...(options.total !== undefined ? { total: options.total } : {}),
      });
      if (chunk.byteLength > 0) yield chunk;
      if (state.truncated) return;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
