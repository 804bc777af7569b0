/**
 * Reads JSON-RPC answers out of HTTP responses. A Streamable HTTP server may answer a POST with
 * one JSON body or with an SSE stream whose events carry the messages; both are accepted.
 */

export interface JsonRpcAnswer {
  id?: number | string | null;
  result?: { content?: { type: string; text?: string }[]; isError?: boolean };
  error?: { code: number; message: string };
}

function isAnswer(value: unknown): value is JsonRpcAnswer {
  return typeof value === 'object' && value !== null && ('result' in value || 'error' in value);
}

/**
 * The `data` of each event in an SSE body, by the WHATWG field rules (one optional space after the
 * colon, comment lines skipped, several `data` lines joined with a newline). Events without data
 * are left out, as a client leaves them out: the priming event of a resumable stream carries only
 * an id and a `retry` delay, and keep-alives are comments. An event cut off by the end of the body
 * (no blank line after it) is dropped, as the spec says.
 */
export function sseData(body: string): string[] {
  const out: string[] = [];
  let data: string[] | undefined;
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data !== undefined && data.join('') !== '') out.push(data.join('\n'));
      data = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    if ((colon === -1 ? line : line.slice(0, colon)) !== 'data') continue;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    data ??= [];
    data.push(value.startsWith(' ') ? value.slice(1) : value);
  }
  return out;
}

/** The first JSON-RPC response (result or error) in `body`, whichever framing `contentType` names. */
export function answerIn(contentType: string | undefined, body: string): JsonRpcAnswer | undefined {
  if ((contentType ?? '').includes('text/event-stream')) {
    for (const data of sseData(body)) {
      // Notifications and requests may come first on the stream; the answer is what counts.
      const message: unknown = JSON.parse(data);
      if (isAnswer(message)) return message;
    }
    return undefined;
  }
  try {
    const message: unknown = JSON.parse(body);
    return isAnswer(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

/** All text blocks of a tool result, joined. */
export function resultText(answer: JsonRpcAnswer | undefined): string {
  return (answer?.result?.content ?? []).map((block) => block.text ?? '').join('\n');
}

/** The JSON-RPC error code of a refusal body, if it is one. */
export function errorCode(json: unknown): number | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = (json as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}
