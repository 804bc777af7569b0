export { createApp } from './app.js';
export {
  type ContextDefiners,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  withContext,
} from './define.js';
export type { AppKeys } from './keys.js';
export { type PackageInfo, readPackageInfo } from './package-info.js';
export type {
  AnyPrompt,
  AnyResource,
  AnyTool,
  App,
  AppOptions,
  AppView,
  Call,
  Complete,
  ContextLifetime,
  Lookup,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerDefinition,
  ToolDefinition,
  ToolInput,
  ToolOutput,
} from './types.js';
