/**
 * Opens the SDK client on a running bin through core's test kit, with the client-side features
 * every scenario needs: roots (the fixture directory), a scripted model, and an elicitation
 * responder whose next answer the scenario sets.
 */
import { connect, type TestSession, type TestTransport } from '@mcpkit/core/testing';
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';

/** Answers elicitation requests the way the scenario says, and records what was asked. */
export class Elicitor {
  next: 'accept' | 'decline' = 'accept';
  readonly asked: string[] = [];

  answer = (params: ElicitRequestParams): ElicitResult => {
    this.asked.push(params.message);
    // Every destructive tool asks a yes/no form whose one field is `confirm`.
    return this.next === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  };
}

export interface OpenOptions {
  era: 'legacy' | 'modern';
  transport: TestTransport;
  roots: string[];
  sampling: Parameters<typeof connect>[1]['sampling'];
  elicitor: Elicitor;
}

export function openSession(options: OpenOptions): Promise<TestSession> {
  return connect(undefined, {
    era: options.era,
    transport: options.transport,
    roots: options.roots,
    ...(options.sampling ? { sampling: options.sampling } : {}),
    elicitation: options.elicitor.answer,
  });
}
