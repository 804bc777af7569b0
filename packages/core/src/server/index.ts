export { type App, type AppDefinition, type AppOptions, type Scope, createApp } from './app.js';
export { NotFound, getPrompt, readResource } from './handlers.js';
export { InstanceRoots } from './instance-roots.js';
export { type AppKeys, STATE_KEY_ENV, resolveKeys } from './keys.js';
export {
  type ToolCall,
  type ToolDefinition,
  type ToolOutput,
  defineTool,
  errorResult,
  registerTool,
} from './tool.js';
