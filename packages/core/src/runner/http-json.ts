/**
 * Turns a POST body into one JSON-RPC message or a rejection. Two gaps of the bare SDK recipe are
 * closed here: 100,000 nested brackets overflow the stack inside the SDK (seen with SDK 2.4), so
 * depth is measured on the raw text with a loop before `JSON.parse` runs; and the 2025 transport
 * still executes JSON-RPC batches (item 16), so a top-level array is refused on every path.
 */
import { type HttpRejection, INVALID_REQUEST, PARSE_ERROR, reject } from './http-errors.js';

/**
 * Whether `[`/`{` nesting in `text` goes deeper than `limit`; the scan stops as soon as it does.
 * Brackets inside strings do not count. Iterative on purpose: a recursive walk is the very overflow being avoided.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

export type JsonBodyResult =
  | { ok: true; message: Record<string, unknown> }
  | { ok: false; rejection: HttpRejection };

/** Parses `text` as a single JSON-RPC message object, with nesting bounded by `maxDepth`. */
export function parseJsonRpcBody(text: string, maxDepth: number): JsonBodyResult {
  if (jsonDepthExceeds(text, maxDepth)) {
    return {
      ok: false,
      rejection: reject(400, INVALID_REQUEST, `Bad Request: JSON nesting deeper than ${maxDepth} levels.`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, rejection: reject(400, PARSE_ERROR, 'Parse error: the body is not valid JSON.') };
  }
  if (Array.isArray(value)) {
    return {
      ok: false,
      rejection: reject(400, INVALID_REQUEST, 'Bad Request: JSON-RPC batches are not supported.'),
    };
  }
  if (value === null || typeof value !== 'object') {
    return {
      ok: false,
      rejection: reject(400, INVALID_REQUEST, 'Bad Request: the body must be one JSON-RPC message object.'),
    };
  }
  return { ok: true, message: value as Record<string, unknown> };
}
