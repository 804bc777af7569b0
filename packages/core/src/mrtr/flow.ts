import { createHash } from 'node:crypto';
import {
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { UserError } from '../errors/index.js';
import { type Answer, type AnswerKind, readAnswer } from './answers.js';
import { abilities, type ClientAbilities, clientCapabilities, type Era } from './capabilities.js';

/** What a multi-round call carries between rounds, signed by the app's request-state codec. */
export interface FlowState {
  v: 1;
  /** The operation (`tools/call:name`, `prompts/get:name`, `resources/read`) the state belongs to. */
  op: string;
  /** Digest of the call's arguments: a state minted for other arguments is refused. */
  digest: string;
  /** Every answer so far, keyed by the name it was asked under. */
  answers: Record<string, Answer>;
  /** What was asked in the last round, so the answers can be validated by kind. */
  pending: Record<string, AnswerKind>;
  round: number;
}

/** Thrown by {@link Flow.ask} to end the round; `runFlow` turns it into an input-required result. */
class NeedInput {
  constructor(readonly requests: Record<string, InputRequest>) {}
}

function kindOf(request: InputRequest): AnswerKind {
  switch (request.method) {
    case 'roots/list':
      return 'roots';
    case 'sampling/createMessage':
      return 'sampling';
    default:
      return 'elicit';
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A stable digest of call arguments, so state cannot be carried over to a different call. */
export function digestArgs(args: unknown): string {
  return createHash('sha256').update(canonical(args)).digest('base64url').slice(0, 22);
}

/**
 * One multi-round call as its handler sees it. The handler is re-run from the top on every round
 * (in the 2026 era the server instance itself is new each round), and each `ask` returns the
 * answer once the client has given it. Work before the last `ask` must therefore be free of side
 * effects; writes go after every question has been answered, which is also what a user expects.
 */
export class Flow {
  readonly abilities: ClientAbilities;

  constructor(
    readonly era: Era,
    readonly ctx: ServerContext,
    mcp: McpServer,
    private readonly answers: Record<string, Answer>,
    readonly round: number,
  ) {
    this.abilities = abilities(clientCapabilities(ctx, mcp));
  }

  /** The call's cancellation signal. */
  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  /** Answer to `request`, asking the client for it (ending this round) if it is not in yet. */
  ask(key: string, request: InputRequest): Answer {
    return this.askAll({ [key]: request })[key]!;
  }

  /** Several independent questions in one round; the 2025 shim sends them in parallel. */
  askAll(requests: Record<string, InputRequest>): Record<string, Answer> {
    const missing: Record<string, InputRequest> = {};
    const got: Record<string, Answer> = {};
    for (const [key, request] of Object.entries(requests)) {
      const answer = this.answers[key];
      if (answer === undefined) missing[key] = request;
      else if (answer.kind !== kindOf(request))
        throw new UserError(`The answer to "${key}" has the wrong kind; retry the call.`);
      else got[key] = answer;
    }
    if (Object.keys(missing).length > 0) throw new NeedInput(missing);
    return got;
  }
}

export interface RunFlowOptions {
  era: Era;
  mcp: McpServer;
  codec: RequestStateCodec<FlowState>;
  /** Names the operation, e.g. `tools/call:summarize_directory`. */
  op: string;
  args: unknown;
}

/**
 * Runs a handler that may need the client's input, in either era, with one piece of code. The
 * 2026 client retries with answers and the signed state; the SDK's 2025 shim turns the same
 * result into real server-to-client requests and re-enters the handler.
 *
 * @example
 * ```ts
 * import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
 * function deleteFile(mcp: McpServer, era: Era, ctx: ServerContext, args: { path: string }) {
 *   const options = { era, mcp, codec: app.stateCodec, op: 'tools/call:delete_file', args };
 *   // 'deleted' or 'kept' once the user has answered; until then an InputRequiredResult to send back
 *   return runFlow(ctx, options, (flow) =>
 *     confirm(flow, { message: `Delete ${args.path}?` }) ? 'deleted' : 'kept',
 *   );
 * }
 * ```
 */
export async function runFlow<T>(
  ctx: ServerContext,
  options: RunFlowOptions,
  body: (flow: Flow) => Promise<T> | T,
): Promise<T | InputRequiredResult> {
  // Hashing the arguments costs a little on every call; only multi-round calls need it.
  let digestValue: string | undefined;
  const digest = () => (digestValue ??= digestArgs(options.args));
  const prior = ctx.mcpReq.requestState<FlowState>();
  let answers: Record<string, Answer> = {};
  let round = 0;
  if (prior !== undefined && typeof prior === 'object') {
    if (prior.v !== 1 || prior.op !== options.op || prior.digest !== digest()) {
      throw new UserError(
        'The retried call does not match the call its state was made for; start the call again.',
      );
    }
    answers = { ...prior.answers };
    round = prior.round;
    for (const [key, kind] of Object.entries(prior.pending)) {
      const answer = readAnswer(ctx.mcpReq.inputResponses, key, kind);
      if (answer !== undefined) answers[key] = answer;
    }
  }
  try {
    return await body(new Flow(options.era, ctx, options.mcp, answers, round));
  } catch (error) {
    if (!(error instanceof NeedInput)) throw error;
    const pending = Object.fromEntries(Object.entries(error.requests).map(([k, r]) => [k, kindOf(r)]));
    const state: FlowState = { v: 1, op: options.op, digest: digest(), answers, pending, round: round + 1 };
    return inputRequired({
      inputRequests: error.requests,
      requestState: await options.codec.mint(state, ctx),
    });
  }
}
