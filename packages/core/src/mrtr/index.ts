export { type Answer, type AnswerKind, readAnswer } from './answers.js';
export { abilities, type ClientAbilities, clientCapabilities, type Era } from './capabilities.js';
export { digestArgs, Flow, type FlowState, type RunFlowOptions, runFlow } from './flow.js';
