export { type Answer, type AnswerKind, readAnswer } from './answers.js';
export { type ClientAbilities, type Era, abilities, clientCapabilities } from './capabilities.js';
export { Flow, type FlowState, type RunFlowOptions, digestArgs, runFlow } from './flow.js';
