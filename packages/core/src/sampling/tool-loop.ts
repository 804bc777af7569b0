import type {
  CreateMessageRequestParams,
  SamplingMessage,
  SamplingMessageContentBlock,
  Tool,
  ToolResultContent,
  ToolUseContent,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { isUserError } from '../errors/index.js';
import type { Flow } from '../mrtr/flow.js';
import { sanitizeForMessage } from '../roots/sanitize.js';
import { answerText, sample } from './sample.js';

/** A tool the server lends the model for the length of one sampling loop. Keep them read-only. */
export interface LoopTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  run(input: z.infer<S>, signal: AbortSignal): Promise<string> | string;
}

/** Defines a loop tool with its input type inferred from the schema. */
export function loopTool<S extends z.ZodObject>(tool: LoopTool<S>): LoopTool<S> {
  return tool;
}

export interface ToolLoopOptions {
  /** Prefix of the keys the loop's questions are asked under. */
  key?: string;
  messages: SamplingMessage[];
  systemPrompt?: string;
  maxTokens: number;
  tools: readonly LoopTool[];
  /** Model turns at most, the last of which may not call tools. Default 5. */
  maxIterations?: number;
  /** Bytes of one tool result handed to the model. Default 32 KiB. */
  maxToolResultBytes?: number;
}

export interface ToolLoopResult {
  text: string;
  model: string;
  iterations: number;
  toolCalls: { name: string; isError: boolean }[];
}

function clip(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength <= max) return text;
  // Cut on a code-point boundary, then say so: the model must know it saw only part.
  let end = max;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}\n[truncated: ${bytes.byteLength} bytes in all]`;
}

async function runUse(use: ToolUseContent, tools: readonly LoopTool[], signal: AbortSignal, max: number) {
  const tool = tools.find((t) => t.name === use.name);
  const result = (text: string, isError: boolean): ToolResultContent => ({
    type: 'tool_result',
    toolUseId: use.id,
    content: [{ type: 'text', text: clip(text, max) }],
    ...(isError ? { isError: true } : {}),
  });
  // The name is the model's: quoted cut and escaped, as any input is.
  if (!tool) return result(`There is no tool named "${sanitizeForMessage(use.name)}".`, true);
  const parsed = tool.input.safeParse(use.input);
  if (!parsed.success) return result(`Invalid input for ${use.name}: ${z.prettifyError(parsed.error)}`, true);
  try {
    return result(await tool.run(parsed.data, signal), false);
  } catch (error) {
    // An unexpected error's own message may hold a host path or a stack: the model gets a sentence.
    return result(
      isUserError(error)
        ? error.message
        : `The tool "${use.name}" failed unexpectedly; try other input, or answer without it.`,
      true,
    );
  }
}

/**
 * Sampling with tools: asks the client's model, runs the tools it calls, and hands the results
 * back until it answers in text. Every `tool_use` gets exactly one `tool_result`; the last turn
 * is sent with `toolChoice: none` so the loop always ends in an answer. A client without tool
 * support in sampling gets one plain request with the same messages.
 *
 * Each round re-runs the loop from the top (the flow replays answers), so tools re-run on replay:
 * they must be read-only and cheap, which the loop's purpose requires anyway.
 *
 * @example
 * ```ts
 * const notes = new Map([['alpha', 'Apples.'], ['beta', 'Bananas.']]);
 * const readNote = loopTool({
 *   name: 'read_note', description: 'Returns one note.', input: z.object({ name: z.string() }),
 *   run: ({ name }) => notes.get(name) ?? `There is no note "${name}".`,
 * });
 * const out = await runToolLoop(call.flow, {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the notes alpha and beta.' } }],
 *   maxTokens: 800, tools: [readNote],
 * });
 * ```
 */
export async function runToolLoop(flow: Flow, options: ToolLoopOptions): Promise<ToolLoopResult> {
  const key = options.key ?? 'agent';
  const max = Math.max(1, Math.min(options.maxIterations ?? 5, 8));
  const maxResult = options.maxToolResultBytes ?? 32 * 1024;
  const withTools = flow.abilities.samplingWithTools && options.tools.length > 0;
  const toolDefs: Tool[] = options.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input, { target: 'draft-2020-12' }) as Tool['inputSchema'],
  }));
  const messages = [...options.messages];
  const toolCalls: ToolLoopResult['toolCalls'] = [];
  for (let i = 0; i < max; i++) {
    const last = i === max - 1;
    const params: CreateMessageRequestParams = {
      messages,
      maxTokens: options.maxTokens,
      ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
      ...(withTools ? { tools: toolDefs, toolChoice: { mode: last ? 'none' : 'auto' } } : {}),
    };
    const result = sample(flow, `${key}.${i}`, params);
    const blocks = (
      Array.isArray(result.content) ? result.content : [result.content]
    ) as SamplingMessageContentBlock[];
    const uses = blocks.filter((b): b is ToolUseContent => b.type === 'tool_use');
    if (!withTools || last || uses.length === 0) {
      return { text: answerText(result), model: result.model, iterations: i + 1, toolCalls };
    }
    const results: ToolResultContent[] = [];
    for (const use of uses) {
      const r = await runUse(use, options.tools, flow.signal, maxResult);
      toolCalls.push({ name: use.name, isError: r.isError === true });
      results.push(r);
    }
    messages.push({ role: 'assistant', content: blocks }, { role: 'user', content: results });
  }
  /* c8 ignore next */
  throw new Error('unreachable: the last iteration always returns');
}
