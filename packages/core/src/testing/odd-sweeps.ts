/**
 * The odd-input sweep's loops, the same for every server: each tool over its argument sets, each
 * prompt argument, each completion reference and each resource URI over a server's odd values, with
 * every answer checked by oddInputProblems. What differs per server (its batteries and values, the
 * host folders no answer may name, its own checks) comes in as parameters; each loop returns the
 * report lines of what it found wrong, empty when nothing is.
 */
import type { Client, CreateMessageRequestParams } from '@modelcontextprotocol/client';
import type { TestSession } from './connect.js';
import {
  type OddInputAnswer,
  type OddInputBattery,
  type OddInputTool,
  oddInputAnswer,
  oddInputCases,
  oddInputLabel,
  oddInputProblems,
  oddInputReport,
} from './odd-inputs.js';

/** What every answer of an odd-input sweep is checked against. */
export interface OddSweepChecks {
  /** Absolute folders no answer may name beyond what the caller sent. */
  hosts: readonly string[];
  /** The problems a server's own wording may add (its words for a failed download, say). */
  more?: (answer: OddInputAnswer) => string[];
}

/** Where an odd-input sweep sends its requests, and what it checks their answers against. */
export interface OddSweepTarget extends OddSweepChecks {
  session: TestSession;
}

/** The report lines of one answer: core's problems, then the server's own. */
export function oddSweepCheck(
  checks: OddSweepChecks,
  label: string,
  sent: unknown,
  answer: OddInputAnswer,
): string[] {
  const problems = oddInputProblems(answer, sent, checks.hosts);
  problems.push(...(checks.more?.(answer) ?? []));
  return oddInputReport(label, answer, problems);
}

/**
 * The next-page cursors of genuine calls, one a call that has a next page: to send each to another
 * call than the one that made it.
 */
export async function oddForeignCursors(
  session: TestSession,
  calls: readonly (readonly [string, Record<string, unknown>])[],
): Promise<string[]> {
  const cursors: string[] = [];
  for (const [tool, args] of calls) {
    const result = await session.callTool(tool, args);
    const next = (result.structuredContent as { nextCursor?: string } | undefined)?.nextCursor;
    if (next) cursors.push(next);
  }
  return cursors;
}

/** How one tool is swept. */
export interface OddToolSweep {
  /** The arguments when nothing is odd: each case varies one of them. */
  base: Record<string, unknown>;
  battery: OddInputBattery;
  /** Wrong-but-valid argument sets the one-argument-at-a-time battery does not make. */
  extras?: readonly Record<string, unknown>[];
  /** Puts back what a writer changed: before each case of a tool not marked read-only, and once after all. */
  restore?: () => Promise<unknown>;
}

/** Calls `tool` with every odd argument set (oddInputCases, then the extras) and checks each answer. */
export async function oddToolSweep(
  target: OddSweepTarget,
  tool: OddInputTool,
  sweep: OddToolSweep,
): Promise<string[]> {
  const cases = [
    ...oddInputCases(tool, sweep.base, sweep.battery),
    ...(sweep.extras ?? []).map((args) => ({ label: `extra ${JSON.stringify(args)}`, args })),
  ];
  const writes = tool.annotations?.readOnlyHint !== true;
  const failures: string[] = [];
  for (const c of cases) {
    if (writes) await sweep.restore?.();
    const answer = await oddInputAnswer(target.session.callTool(tool.name, c.args));
    failures.push(...oddSweepCheck(target, c.label, c.args, answer));
  }
  await sweep.restore?.();
  return failures;
}

/** How the prompts are swept. */
export interface OddPromptSweep {
  /** The value an argument keeps while another one is odd; `undefined` leaves it out. */
  base: (arg: { name: string; required?: boolean }) => string | undefined;
  /** The odd values of an argument, by its name. */
  values: (name: string) => readonly string[];
  /** Whether each prompt is also asked for with no arguments at all (default true). */
  withoutArguments?: boolean;
}

/** Gets every listed prompt with each of its arguments odd in turn, and checks each answer. */
export async function oddPromptSweep(target: OddSweepTarget, sweep: OddPromptSweep): Promise<string[]> {
  const client = target.session.client;
  const failures: string[] = [];
  for (const prompt of (await client.listPrompts()).prompts) {
    const base = Object.fromEntries(
      (prompt.arguments ?? []).flatMap((a) => {
        const value = sweep.base(a);
        return value === undefined ? [] : [[a.name, value]];
      }),
    );
    for (const arg of prompt.arguments ?? []) {
      for (const value of sweep.values(arg.name)) {
        const args = { ...base, [arg.name]: value };
        const answer = await oddInputAnswer(client.getPrompt({ name: prompt.name, arguments: args }));
        failures.push(
          ...oddSweepCheck(target, `${prompt.name} ${arg.name}=${oddInputLabel(value)}`, args, answer),
        );
      }
    }
    if (sweep.withoutArguments === false) continue;
    const answer = await oddInputAnswer(client.getPrompt({ name: prompt.name, arguments: {} }));
    failures.push(...oddSweepCheck(target, `${prompt.name} without arguments`, {}, answer));
  }
  return failures;
}

/** What a completion request names: a prompt, or a resource template. */
export type OddCompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** One argument to complete, of one reference. */
export interface OddCompletionArgument {
  ref: OddCompletionRef;
  arg: string;
}

/** A value typed, alone or with the other arguments already given (the request's context). */
export type OddCompletionTry = string | { value: string; context: Record<string, string> };

/** How the completions are swept. */
export interface OddCompletionSweep {
  /** Whether each listed resource template's variables are completed too. */
  templates?: boolean;
  /** References beyond the listed ones (a template by hand, one that names nothing). */
  refs?: readonly OddCompletionArgument[];
  /** What is typed for every argument of every reference. */
  tries: readonly OddCompletionTry[];
}

/**
 * Completes every argument of every listed prompt (and resource template, with `templates`), and of
 * the extra references, with each of the tries, and checks each answer.
 */
export async function oddCompletionSweep(
  target: OddSweepTarget,
  sweep: OddCompletionSweep,
): Promise<string[]> {
  const client = target.session.client;
  const prompts = (await client.listPrompts()).prompts;
  const templates = sweep.templates ? (await client.listResourceTemplates()).resourceTemplates : [];
  const refs: OddCompletionArgument[] = [
    ...prompts.flatMap((p) =>
      (p.arguments ?? []).map((a) => ({ ref: { type: 'ref/prompt' as const, name: p.name }, arg: a.name })),
    ),
    ...templates.flatMap((t) =>
      [...t.uriTemplate.matchAll(/\{\+?(\w+)\}/g)].map((m) => ({
        ref: { type: 'ref/resource' as const, uri: t.uriTemplate },
        arg: m[1] as string,
      })),
    ),
    ...(sweep.refs ?? []),
  ];
  const failures: string[] = [];
  for (const { ref, arg } of refs) {
    for (const typed of sweep.tries) {
      const { value, context } = typeof typed === 'string' ? { value: typed, context: undefined } : typed;
      const params = {
        ref,
        argument: { name: arg, value },
        ...(context ? { context: { arguments: context } } : {}),
      } as Parameters<Client['complete']>[0];
      const answer = await oddInputAnswer(client.complete(params));
      const label = `complete ${JSON.stringify(ref)} ${arg}=${oddInputLabel(value)}`;
      failures.push(
        ...(context
          ? oddSweepCheck(target, `${label} in ${oddInputLabel(context)}`, [value, context], answer)
          : oddSweepCheck(target, label, value, answer)),
      );
    }
  }
  return failures;
}

/** How the resource reads are swept. */
export interface OddResourceSweep {
  uris: readonly string[];
  /** What a refusal may quote of a URI besides the URI itself (default: the URI decoded). */
  sent?: (uri: string) => unknown;
  /** Whether a URI is subscribed to as well as read (default none). */
  subscribe?: (uri: string) => boolean;
}

/** Reads each URI (and subscribes to it, where asked, in the 2025 era) and checks each answer. */
export async function oddResourceSweep(target: OddSweepTarget, sweep: OddResourceSweep): Promise<string[]> {
  const client = target.session.client;
  const failures: string[] = [];
  for (const uri of sweep.uris) {
    const sent = sweep.sent ? sweep.sent(uri) : [uri, decodedUri(uri)];
    const answer = await oddInputAnswer(client.readResource({ uri }));
    failures.push(...oddSweepCheck(target, `read ${oddInputLabel(uri)}`, sent, answer));
    // The 2026 era has no resources/subscribe: its client refuses the call before sending it.
    if (target.session.era === 'legacy' && sweep.subscribe?.(uri)) {
      const sub = await oddInputAnswer(client.subscribeResource({ uri }));
      failures.push(...oddSweepCheck(target, `subscribe ${oddInputLabel(uri)}`, sent, sub));
    }
  }
  return failures;
}

// A URI as a server decodes it, since a refusal may quote that; as sent when it does not decode.
function decodedUri(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/** What a sampling model was told in its last request: each tool result, as an answer to check. */
export function oddLoopAnswers(requests: readonly CreateMessageRequestParams[]): OddInputAnswer[] {
  const messages = requests.at(-1)?.messages ?? [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : [m.content]))
    .flatMap((b) => {
      if (b.type !== 'tool_result') return [];
      const text = (b.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
      return [{ isError: (b as { isError?: boolean }).isError === true, protocolError: false, text }];
    });
}
