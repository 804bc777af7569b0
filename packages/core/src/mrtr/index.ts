/**
 * Multi-round calls: a handler asks the client for roots, sampling or elicitation through
 * `call.flow`, written once for both eras. These are the answer's shapes and the client's abilities.
 */
export { type Answer, type AnswerKind, readAnswer } from './answers.js';
export { abilities, type ClientAbilities, clientCapabilities, type Era } from './capabilities.js';
export type { Flow } from './flow.js';
