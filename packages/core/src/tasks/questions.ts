import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';

type Caps = Record<string, Record<string, unknown>>;

/**
 * The client capabilities one question needs, by the rules the SDK applies to a synchronous
 * call's questions: URL-mode elicitation needs `elicitation.url` and any other elicitation
 * `elicitation.form`; sampling that offers `tools` or a `toolChoice` needs `sampling.tools`.
 * Throws for a kind of question the 2026-07-28 revision does not define: that is a server bug.
 */
export function requiredFor(request: InputRequest): Caps {
  const { method, params } = request as { method: string; params?: Record<string, unknown> };
  switch (method) {
    case 'elicitation/create':
      return params?.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return params?.tools !== undefined || params?.toolChoice !== undefined
        ? { sampling: { tools: {} } }
        : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
    default:
      throw new Error(`A task asked a question of kind "${method}", which no client can answer.`);
  }
}

/**
 * A bare `elicitation: {}` (no mode named) is the 2025 way of saying form mode, so it satisfies
 * a form requirement; naming any mode takes that reading away.
 */
function implied(capability: string, member: string, declared: Record<string, unknown>): boolean {
  return (
    capability === 'elicitation' &&
    member === 'form' &&
    declared.form === undefined &&
    declared.url === undefined
  );
}

/**
 * The capabilities a task's questions need and the client did not declare, shaped for the -32021
 * error's `requiredCapabilities`, or `undefined` when it can answer them all. The SDK checks this
 * for a multi-round result; a task's questions bypass that check, and one the client cannot answer
 * would leave the task waiting until it times out.
 */
export function missingFor(
  requests: Record<string, InputRequest>,
  declared: ClientCapabilities,
): ClientCapabilities | undefined {
  const have = declared as Record<string, unknown>;
  const missing: Caps = {};
  for (const request of Object.values(requests)) {
    for (const [capability, members] of Object.entries(requiredFor(request))) {
      const value = have[capability];
      if (value === undefined || value === null || typeof value !== 'object') {
        missing[capability] = { ...missing[capability], ...members };
        continue;
      }
      const present = value as Record<string, unknown>;
      for (const member of Object.keys(members)) {
        if (present[member] !== undefined || implied(capability, member, present)) continue;
        missing[capability] = { ...missing[capability], [member]: {} };
      }
    }
  }
  return Object.keys(missing).length > 0 ? (missing as ClientCapabilities) : undefined;
}
