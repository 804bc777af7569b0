export { type App, type AppDefinition, type AppOptions, createApp, type Scope } from './app.js';
export { getPrompt, NotFound, readResource } from './handlers.js';
export { InstanceRoots } from './instance-roots.js';
export { type AppKeys, resolveKeys, STATE_KEY_ENV } from './keys.js';
export {
  defineTool,
  errorResult,
  registerTool,
  type ToolCall,
  type ToolDefinition,
  type ToolOutput,
} from './tool.js';
