import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessage,
} from '@modelcontextprotocol/client';

/** A stand-in for the client's model: gets the request, returns the answer. */
export type SamplingResponder = (
  params: CreateMessageRequestParams,
) =>
  | CreateMessageResult
  | CreateMessageResultWithTools
  | Promise<CreateMessageResult | CreateMessageResultWithTools>;

function lastIsToolResult(messages: SamplingMessage[]): boolean {
  const last = messages.at(-1);
  if (!last) return false;
  const blocks = Array.isArray(last.content) ? last.content : [last.content];
  return blocks.some((b) => b.type === 'tool_result');
}

export interface ScriptedModelOptions {
  /** Tool calls the model makes, one per turn, while the server offers tools. */
  toolCalls?: { name: string; input: Record<string, unknown> }[];
  /** The final text answer, given the messages it saw. */
  answer?: (params: CreateMessageRequestParams) => string;
}

/**
 * A deterministic model for tests: while tools are offered and calls remain, it calls the next
 * tool; then it answers in text. It records every request it got in `requests`.
 *
 * @example
 * ```ts
 * const model = scriptedModel({ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }], answer: () => 'done' });
 * await connect(app, { era: 'modern', sampling: model.respond });
 * ```
 */
export function scriptedModel(options: ScriptedModelOptions = {}) {
  const requests: CreateMessageRequestParams[] = [];
  let next = 0;
  const respond: SamplingResponder = (params) => {
    requests.push(params);
    const call = options.toolCalls?.[next];
    const offersTools = (params.tools?.length ?? 0) > 0 && params.toolChoice?.mode !== 'none';
    if (call && offersTools && (next === 0 || lastIsToolResult(params.messages))) {
      next++;
      return {
        model: 'scripted',
        role: 'assistant',
        stopReason: 'toolUse',
        content: [{ type: 'tool_use', id: `call-${next}`, name: call.name, input: call.input }],
      };
    }
    return {
      model: 'scripted',
      role: 'assistant',
      stopReason: 'endTurn',
      content: { type: 'text', text: options.answer ? options.answer(params) : 'ok' },
    };
  };
  return { respond, requests };
}
