/**
 * Reads JSON-RPC answers out of HTTP responses. A Streamable HTTP server may answer a POST with
 * one JSON body or with an SSE stream whose `data:` lines carry the messages; both are accepted.
 */

export interface JsonRpcAnswer {
  id?: number | string | null;
  result?: { content?: { type: string; text?: string }[]; isError?: boolean };
  error?: { code: number; message: string };
}

function isAnswer(value: unknown): value is JsonRpcAnswer {
  return typeof value === 'object' && value !== null && ('result' in value || 'error' in value);
}

/** The first JSON-RPC response (result or error) in `body`, whichever framing `contentType` names. */
export function answerIn(contentType: string | undefined, body: string): JsonRpcAnswer | undefined {
  if ((contentType ?? '').includes('text/event-stream')) {
    for (const line of body.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      try {
        const message: unknown = JSON.parse(line.slice(5));
        if (isAnswer(message)) return message;
      } catch {
        // Keep-alive comments and partial lines are not messages.
      }
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
