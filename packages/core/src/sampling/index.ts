export { answerText, SamplingUnavailableError, sample } from './sample.js';
export {
  type LoopTool,
  loopTool,
  runToolLoop,
  type ToolLoopOptions,
  type ToolLoopResult,
} from './tool-loop.js';
