/**
 * @mcpkit/core — everything the mcpkit servers share. Each module is also its own entry point
 * (`@mcpkit/core/roots`, `@mcpkit/core/server`, …), which is the way to import it; this barrel
 * names the same exports in one place. `@mcpkit/core/testing` is only reachable by its own path, so
 * production code never loads the test client.
 */
export {
  type CompleterOptions,
  type CompletionCallback,
  type CompletionContext,
  type CompletionSource,
  completer,
  type RankedCompletions,
  type RankOptions,
  rankCompletions,
} from './completion/index.js';
export {
  type AskOptions,
  ask,
  type ConfirmOptions,
  confirm,
} from './elicitation/index.js';
export {
  errorMessage,
  isUserError,
  NotFound,
  UserError,
} from './errors/index.js';
export {
  type BinaryTooLarge,
  base64Length,
  type Continuation,
  limitBinary,
  OutputBudget,
  type ShownLines,
  type ShownPart,
  type TruncatedLines,
  type TruncatedText,
  type TruncateLinesOptions,
  type TruncateTextOptions,
  truncateLines,
  truncateText,
  utf8ByteLength,
  utf8Prefix,
} from './limits/index.js';
export {
  createLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type McpLog,
  silentLogger,
} from './logging/index.js';
export {
  type Answer,
  type AnswerKind,
  abilities,
  type ClientAbilities,
  clientCapabilities,
  type Era,
  type Flow,
  readAnswer,
} from './mrtr/index.js';
export {
  type ArrayPosition,
  type CursorCodec,
  type CursorCodecOptions,
  type CursorPosition,
  createCursorCodec,
  INVALID_CURSOR_MESSAGE,
  type JsonValue,
  type Page,
  type PageSource,
  type PaginateArrayOptions,
  type PaginateSourceOptions,
  type PositionGuard,
  paginateArray,
  paginateSource,
  type SourceItem,
} from './pagination/index.js';
export {
  CancelledError,
  checkpoint,
  type ProcessResult,
  type ProgressOptions,
  type ProgressReporter,
  progress,
  type RunProcessOptions,
  runProcess,
  throwIfAborted,
  withDeadline,
} from './progress/index.js';
export {
  escapeControlChars,
  type PathInputOptions,
  parsePathInput,
  type ResolvedPath,
  type ResolveMode,
  type Root,
  RootSet,
  type RootSetOptions,
  sanitizeForMessage,
} from './roots/index.js';
export {
  type CommonOptions,
  type ExtraOption,
  type ParsedCommandLine,
  runServer,
  type ServerBin,
  serveAppStdio,
  TOKEN_ENV,
  UsageError,
} from './runner/index.js';
export {
  answerText,
  type LoopTool,
  loopTool,
  runToolLoop,
  SamplingUnavailableError,
  sample,
  type ToolLoopOptions,
  type ToolLoopResult,
} from './sampling/index.js';
export {
  type AnyPrompt,
  type AnyResource,
  type AnyTool,
  type App,
  type AppKeys,
  type AppOptions,
  type AppView,
  type Call,
  type Complete,
  type ContextDefiners,
  type ContextLifetime,
  createApp,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type Lookup,
  type PackageInfo,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  readPackageInfo,
  type ServerDefinition,
  type ToolDefinition,
  type ToolOutput,
  withContext,
} from './server/index.js';
export {
  type ListKind,
  type NotificationTarget,
  type PollProviderOptions,
  pollWatch,
  type SubscriptionHub,
  type WatchFactory,
  type WatchProvider,
  type WatchSource,
  watchFile,
} from './subscriptions/index.js';
export {
  type CreateTaskResult,
  type DetailedTask,
  TASKS_EXTENSION,
  type Task,
  type TaskError,
  type TaskSnapshot,
  type TaskStatus,
  type TaskStoreOptions,
  type TaskSupport,
} from './tasks/index.js';
