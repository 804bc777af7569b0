import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';
import type { ClientAbilities } from '../mrtr/capabilities.js';

/** Which ability each kind of question needs, and the capability that declares it. */
const NEEDS: Record<string, { ability: keyof ClientAbilities; capability: ClientCapabilities }> = {
  'elicitation/create': { ability: 'elicitForm', capability: { elicitation: {} } },
  'sampling/createMessage': { ability: 'sampling', capability: { sampling: {} } },
  'roots/list': { ability: 'roots', capability: { roots: {} } },
};

/**
 * The capabilities a task's questions need and the client did not declare, or `undefined` when
 * it can answer them all. The SDK checks this for a multi-round result; a task's questions
 * bypass that check, and one the client cannot answer would leave the task waiting until it
 * expires.
 */
export function missingFor(
  requests: Record<string, InputRequest>,
  abilities: ClientAbilities,
): ClientCapabilities | undefined {
  let missing: ClientCapabilities | undefined;
  for (const request of Object.values(requests)) {
    const need = NEEDS[request.method];
    if (need && !abilities[need.ability]) missing = { ...missing, ...need.capability };
  }
  return missing;
}
