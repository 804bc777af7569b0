export { SamplingUnavailableError, answerText, sample } from './sample.js';
export {
  type LoopTool,
  type ToolLoopOptions,
  type ToolLoopResult,
  loopTool,
  runToolLoop,
} from './tool-loop.js';
