export { type ConnectOptions, connect, type TestSession, type TestTransport } from './connect.js';
export {
  builtBin,
  type DiscoveredServer,
  discoverServers,
  loadWorld,
  serversWithoutWorld,
} from './discover.js';
export { type HttpBin, type StartHttpBinOptions, startHttpBin, userNode } from './http-bin.js';
export { listAll } from './list-all.js';
export { type SamplingResponder, type ScriptedModelOptions, scriptedModel } from './model.js';
export { type Notification, NotificationLog } from './notifications.js';
export {
  ODD_STRINGS,
  type OddInputAnswer,
  type OddInputBattery,
  type OddInputCase,
  type OddInputSchema,
  type OddInputTool,
  oddCursors,
  oddInputAnswer,
  oddInputCases,
  oddInputLabel,
  oddInputProblems,
  oddInputReport,
} from './odd-inputs.js';
export {
  type OddCompletionArgument,
  type OddCompletionRef,
  type OddCompletionSweep,
  type OddCompletionTry,
  type OddPromptSweep,
  type OddResourceSweep,
  type OddSweepChecks,
  type OddSweepTarget,
  type OddToolSweep,
  oddCompletionSweep,
  oddForeignCursors,
  oddLoopAnswers,
  oddPromptSweep,
  oddResourceSweep,
  oddSweepCheck,
  oddToolSweep,
} from './odd-sweeps.js';
export {
  bytesReadBy,
  cpuTimeMs,
  processesMentioning,
  threadCpuTimes,
  untilThreadsEnd,
} from './processes.js';
export { httpResponseComplete, parseHttpResponse, type RawHttpResponse } from './raw-http.js';
export {
  defineScenario,
  Elicitor,
  type Scenario,
  type ScenarioContext,
  type ScenarioFixture,
  type TaskStep,
} from './scenario.js';
export { type CancelOptions, expectCancelled } from './scenario-cancel.js';
export {
  callWithProgress,
  expectLogMessage,
  expectResourceUpdated,
  expectTaskRound,
  expectToolError,
  listPaged,
} from './scenario-steps.js';
export {
  httpTaskWire,
  type TaskWire,
  TaskWireError,
  type TaskWireRequestOptions,
  type TaskWireResult,
  taskWire,
  untilTask,
} from './task-wire.js';
export { textOf } from './text-of.js';
export { busyThreads, untilThreadsStop } from './work-threads.js';
export {
  type ConformanceRevision,
  defineTestWorld,
  type ReadCall,
  type TestWorld,
  type WorldInstance,
} from './world.js';
