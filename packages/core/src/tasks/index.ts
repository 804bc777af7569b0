/**
 * The MCP Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) for the 2026-07-28 era. A
 * tool opts in with `task: 'optional' | 'required'` on `defineTool`; `createApp` does the rest.
 * The 2025 era's tasks are a different, replaced design and are not offered.
 */
export type { TaskOffers } from './dispatch.js';
export { declaresTasks, TASKS_EXTENSION, tasksCapabilityMissing } from './extension.js';
export type { TaskStoreOptions } from './options.js';
export {
  type CreateTaskResult,
  createTaskResult,
  type DetailedTask,
  detailedTask,
  type Task,
  type TaskSupport,
} from './shapes.js';
export { TaskStore } from './store.js';
export type { TaskError, TaskHandle, TaskSnapshot, TaskStatus } from './types.js';
