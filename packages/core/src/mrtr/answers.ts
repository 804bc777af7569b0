import {
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitResult,
  inputResponse,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { UserError } from '../errors/index.js';

/** A client's answer to one embedded request, after validation. */
export type Answer =
  | { kind: 'roots'; uris: string[] }
  | { kind: 'sampling'; result: CreateMessageResult | CreateMessageResultWithTools }
  | { kind: 'elicit'; action: ElicitResult['action']; content?: Record<string, unknown> };

export type AnswerKind = Answer['kind'];

const MAX_ROOTS = 256;

/**
 * Reads and validates one answer. 2026-era answers reach the handler unvalidated (the SDK checks
 * only the 2025 shim's), so every kind is checked against the spec schema here, and the same
 * checks then hold in both eras. Returns `undefined` when the key was not answered.
 */
export function readAnswer(responses: unknown, key: string, expected: AnswerKind): Answer | undefined {
  if (!responses || typeof responses !== 'object' || !(key in responses)) return undefined;
  const view = inputResponse(responses as Record<string, unknown>, key);
  if (view.kind === 'missing') return undefined;
  if (view.kind !== expected) {
    throw new UserError(
      `The client answered the ${expected} request "${key}" with a ${view.kind} result; retry the call.`,
    );
  }
  const raw = (responses as Record<string, unknown>)[key];
  switch (view.kind) {
    case 'roots': {
      const parsed = specTypeSchemas.ListRootsResult['~standard'].validate(raw);
      if (parsed.issues || view.roots.length > MAX_ROOTS) {
        throw new UserError('The client sent an invalid roots list; check the client and retry.');
      }
      return { kind: 'roots', uris: view.roots.map((r) => r.uri) };
    }
    case 'sampling': {
      const parsed = specTypeSchemas.CreateMessageResultWithTools['~standard'].validate(raw);
      if (parsed.issues) throw new UserError('The client sent an invalid sampling result; retry the call.');
      return { kind: 'sampling', result: parsed.value as CreateMessageResultWithTools };
    }
    case 'elicit': {
      const parsed = specTypeSchemas.ElicitResult['~standard'].validate(raw);
      if (parsed.issues)
        throw new UserError('The client sent an invalid answer to a question; retry the call.');
      return view.content === undefined
        ? { kind: 'elicit', action: view.action }
        : { kind: 'elicit', action: view.action, content: view.content };
    }
  }
}
