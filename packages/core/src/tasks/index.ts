/**
 * The MCP Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) for the 2026-07-28 era. A
 * tool opts in with `task: 'optional' | 'required'` on `defineTool`; `createApp` does the rest.
 * The 2025 era's tasks are a different, replaced design and are not offered.
 */
export { TASKS_EXTENSION } from './extension.js';
export type { TaskStoreOptions } from './options.js';
export type { CreateTaskResult, DetailedTask, Task, TaskSupport } from './shapes.js';
export type { TaskError, TaskSnapshot, TaskStatus } from './types.js';
