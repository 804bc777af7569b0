/**
 * The shapes a server is written in: its definition, the call object every handler gets, and the
 * app that serves it. Types only, so that the app, the registration code and the tasks extension
 * can all depend on them without depending on each other.
 */
import type {
  AuthInfo,
  ContentBlock,
  GetPromptResult,
  McpServer,
  McpServerFactory,
  ReadResourceResult,
  RequestStateCodec,
  Resource,
  ServerContext,
  StandardSchemaWithJSON,
  ToolAnnotations,
  Variables,
} from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { CompletionContext } from '../completion/completer.js';
import type { Logger } from '../logging/logger.js';
import type { McpLog } from '../logging/mcp-log.js';
import type { Era } from '../mrtr/capabilities.js';
import type { Flow, FlowState } from '../mrtr/flow.js';
import type { CursorCodec } from '../pagination/cursor-codec.js';
import type { ProgressReporter } from '../progress/reporter.js';
import type { RootSet } from '../roots/root-set.js';
import type { SubscriptionHub } from '../subscriptions/hub.js';
import type { WatchFactory } from '../subscriptions/types.js';
import type { TaskStoreOptions } from '../tasks/options.js';
import type { TaskSupport } from '../tasks/shapes.js';
import type { TaskStore } from '../tasks/store.js';
import type { AppKeys } from './keys.js';

// biome-ignore lint/suspicious/noExplicitAny: the context type of a list that holds any server's definitions
type AnyContext = any;

/**
 * What every handler gets — tool, resource, resource template and prompt alike — besides its own
 * arguments. `C` is the server's context type (see {@link ServerDefinition.context}).
 */
export interface Call<C = undefined> {
  /** The server's own settings and handles, created once per app. */
  readonly context: C;
  /** What the whole app shares: change notifications (`app.hub`), cursors, page sizes, limits. */
  readonly app: AppView<C>;
  /** The client's protocol era: `legacy` (2025-11-25 and older) or `modern` (2026-07-28). */
  readonly era: Era;
  /** Aborted when the client cancels the call or goes away; pass it to every slow operation. */
  readonly signal: AbortSignal;
  /** Progress for the client; a no-op when it did not ask for progress. */
  readonly progress: ProgressReporter;
  /** MCP log messages for the client, by each era's rule (also written to the process log). */
  readonly log: McpLog;
  /** Questions for the client — roots, sampling, elicitation — asked in the same way in both eras. */
  readonly flow: Flow;
  /** The directories this call may use: the app's, narrowed by the client's roots. */
  roots(): Promise<RootSet>;
  /** The SDK's request context, for the rare thing core does not wrap. */
  readonly ctx: ServerContext;
}

/**
 * What a listing or a completion gets: the context and the roots in force, without a request to
 * ask anything in (listings and completions cannot ask the client questions).
 */
export interface Lookup<C = undefined> {
  readonly context: C;
  readonly app: AppView<C>;
  /** The roots in force for this client, as last heard; never asks. */
  roots(): Promise<RootSet>;
}

/**
 * Candidates for one argument being typed, given the arguments already chosen. Core ranks them
 * (prefix matches first, then substring, case-insensitive) and caps them at 100.
 */
export type Complete<C> = (
  typed: string,
  lookup: Lookup<C>,
  context: CompletionContext | undefined,
) => Iterable<string> | Promise<Iterable<string>>;

/** A tool's answer: text for the model, and the same data structured when the tool declares an output schema. */
export interface ToolOutput<O = unknown> {
  text: string;
  structured?: O;
  /** More content after the text: images, audio, resource links. */
  content?: ContentBlock[];
  isError?: boolean;
}

type OutputOf<O> = O extends z.ZodObject ? z.infer<O> : never;

/**
 * A tool's argument schema: a zod object, which core makes strict, or, for a schema zod cannot
 * write (`$anchor`, `if`/`then`/`else`), any Standard Schema that converts itself to JSON Schema,
 * such as the SDK's `fromJsonSchema<Args>(schema)`, served and checked as it is.
 */
export type ToolInput = z.ZodObject | StandardSchemaWithJSON<unknown, Record<string, unknown>>;

/** The arguments `run` gets for an input schema. */
type ArgsOf<I extends ToolInput> = I extends z.ZodObject ? z.infer<I> : StandardSchemaWithJSON.InferOutput<I>;

export interface ToolDefinition<
  I extends ToolInput = z.ZodObject,
  O extends z.ZodObject | undefined = undefined,
  C = undefined,
> {
  name: string;
  title: string;
  description: string;
  /** The arguments. Unknown arguments are refused, not ignored (a non-zod schema decides for itself). */
  input: I;
  /** The shape of `structured`; declaring it makes the result carry `structuredContent`. */
  output?: O;
  annotations: Omit<ToolAnnotations, 'title'> & { readOnlyHint: boolean };
  /**
   * For a tool that is not read-only but leaves the server's own data alone, e.g. one that writes a
   * file into a directory the operator named: an app that is read-only for its data only
   * (`readOnly: 'data'`) still offers it, with its true `readOnlyHint: false`, so hosts still ask
   * before it runs. An app that changes nothing (`readOnly: true`, the runner's `--read-only`) hides
   * it like every other tool that is not read-only.
   */
  writesOutsideData?: boolean;
  /**
   * Lets a 2026-era client that declares the tasks extension get a task handle at once and poll
   * for the result (see `@mcpkit/core/tasks`). The 2025 era has no tasks: the tool runs as usual.
   */
  task?: TaskSupport;
  /**
   * Questions settled in the request itself (`call.flow.ask`, multi-round) before a task is made;
   * `run` reads their answers under the same keys. Without a task it just runs before `run`.
   */
  beforeTask?: (args: ArgsOf<I>, call: Call<C>) => void | Promise<void>;
  run: (args: ArgsOf<I>, call: Call<C>) => Promise<ToolOutput<OutputOf<O>>> | ToolOutput<OutputOf<O>>;
}

export interface PromptDefinition<A extends z.ZodObject = z.ZodObject, C = undefined> {
  name: string;
  title: string;
  description: string;
  /** The arguments; prompt arguments are strings on the wire. */
  args?: A;
  /** Completion sources for arguments, by name. */
  complete?: { [K in keyof z.infer<A>]?: Complete<C> };
  /** Builds the messages. A user's mistake is a `UserError`: the client gets its sentence. */
  get: (args: z.infer<A>, call: Call<C>) => Promise<GetPromptResult> | GetPromptResult;
}

/** What resources and resource templates share. */
interface ResourceCommon<C> {
  /** Names the resource (or template) among the server's; not shown to users. */
  name: string;
  title: string;
  description: string;
  mimeType?: string;
  /**
   * How to watch one URI of this resource for changes while a client is subscribed, or
   * `undefined` when this URI cannot be watched. Gets the app's directories, not one client's.
   */
  watch?: (uri: string, lookup: Lookup<C>) => WatchFactory | undefined;
}

/** One fixed resource at a fixed URI. */
export interface ResourceDefinition<C = undefined> extends ResourceCommon<C> {
  uri: string;
  /** Reads it. A URI that names nothing throws `NotFound`; a user's mistake throws `UserError`. */
  read: (uri: URL, call: Call<C>) => Promise<ReadResourceResult> | ReadResourceResult;
}

/** A family of resources under one URI template (RFC 6570), e.g. `note:///{name}`. */
export interface ResourceTemplateDefinition<C = undefined> extends ResourceCommon<C> {
  uriTemplate: string;
  /** The resources `resources/list` shows; omit when there are too many to list. */
  list?: (lookup: Lookup<C>) => Promise<Resource[]> | Resource[];
  /** Completion sources for the template's variables, by name. */
  complete?: Record<string, Complete<C>>;
  /** Reads one. A URI that names nothing throws `NotFound`; a user's mistake throws `UserError`. */
  read: (uri: URL, variables: Variables, call: Call<C>) => Promise<ReadResourceResult> | ReadResourceResult;
}

/** Any tool of a server whose context is `C`. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds tools of every schema; each keeps its own types
export type AnyTool<C = AnyContext> = ToolDefinition<any, any, C>;
/** Any prompt of a server whose context is `C`. */
// biome-ignore lint/suspicious/noExplicitAny: as for tools
export type AnyPrompt<C = AnyContext> = PromptDefinition<any, C>;
/** Any resource or resource template of a server whose context is `C`. */
export type AnyResource<C = AnyContext> = ResourceDefinition<C> | ResourceTemplateDefinition<C>;

/** The server's own state: made once per app, closed once when the app closes. */
export interface ContextLifetime<C> {
  /** Makes the context; `app` is everything but the context itself, which does not exist yet. */
  create: (app: Omit<App<C>, 'context'>) => C;
  /** Releases what the context holds (a database, a worker, an agent). Called exactly once. */
  close?: (context: C) => void | Promise<void>;
}

/**
 * What a server is: its name, its lists of tools, resources and prompts, and its context. A server
 * whose handlers read a context must say how to make it: `context` is required unless `C` allows
 * `undefined`.
 */
export type ServerDefinition<C = undefined> = ServerMetadata<C> &
  (undefined extends C ? { context?: ContextLifetime<C> } : { context: ContextLifetime<C> });

/** Everything in a {@link ServerDefinition} but its context. */
export interface ServerMetadata<C = undefined> {
  /** The name in `serverInfo`, usually the bin's name. */
  name: string;
  /** The version in `serverInfo`: read it from the package's own package.json. */
  version: string;
  title?: string;
  description?: string;
  /** Shown to the model by hosts that surface server instructions. */
  instructions?: string | ((app: App<C>) => string);
  tools?: readonly AnyTool<C>[];
  resources?: readonly AnyResource<C>[];
  prompts?: readonly AnyPrompt<C>[];
  /** Which parts of the protocol the server offers. Default: all of them. */
  capabilities?: {
    /** `resources/subscribe` and `subscriptions/listen` for resources. */
    subscribe?: boolean;
    completions?: boolean;
    logging?: boolean;
  };
}

export interface AppOptions {
  /** The allowed directories (the ceiling client roots may narrow), for servers that work on files. */
  roots?: RootSet;
  /**
   * `true`: change nothing, so every tool that is not read-only is hidden (the runner's
   * `--read-only`). `'data'`: leave the server's own data unchanged, so tools that are not
   * read-only are hidden except those marked `writesOutsideData`. Default `false`: every tool.
   */
  readOnly?: boolean | 'data';
  /** Items per page of the list methods (`tools/list`, `resources/list`, …). Default 100. */
  pageSize?: number;
  /**
   * Items per page of a paged tool result (search hits, directory entries). Default 10 000: such
   * pages are also cut by the output budget (1 MiB by default), so the item cap rarely binds, and
   * every extra page is a round trip for the model.
   */
  resultPageSize?: number;
  /** Bytes of text one tool result or resource read may carry. */
  outputLimitBytes?: number;
  /** Keys for signed state and cursors; default from `MCPKIT_STATE_KEY` or random. */
  keys?: AppKeys;
  log?: Logger;
  /** Debounce of change notifications. Default 100 ms. */
  notifyDebounceMs?: number;
  /** Watched resources at most. Default 256. */
  maxWatches?: number;
  /**
   * Lifetime, polling hint, question deadline and caps of tasks (2026 era, tools with `task` set),
   * including `maxResultBytes`, the budget for finished results across the app.
   */
  tasks?: TaskStoreOptions;
}

/**
 * The part of the app a handler may use: its settings, the cursor codec for paged results, and
 * the hub's two announcements. Closing the app, minting request state or adding watch providers
 * are the app's business, not a handler's.
 */
export interface AppView<C = unknown> {
  readonly name: string;
  readonly version: string;
  readonly context: C;
  /** What the app may change: see {@link AppOptions.readOnly}. */
  readonly readOnly: boolean | 'data';
  /** Items per page of the list methods. */
  readonly pageSize: number;
  /** Items per page of a paged tool result. */
  readonly resultPageSize: number;
  /** Bytes of text one tool result or resource read may carry. */
  readonly outputLimitBytes: number;
  /** The directories the app was given: the ceiling every client's roots narrow. */
  readonly rootsCeiling: RootSet | undefined;
  /** The process log (stderr). */
  readonly log: Logger;
  /** Signs and checks the cursors of paged tool results. */
  readonly cursors: CursorCodec;
  /** Announces a change a handler made: `resourceUpdated(uri)`, `listChanged('resources')`. */
  readonly hub: Pick<SubscriptionHub, 'resourceUpdated' | 'listChanged'>;
}

/** What every instance shares: the view handlers get, plus the definition, the whole hub, tasks and codecs. */
export interface App<C = unknown> extends AppView<C> {
  // biome-ignore lint/suspicious/noExplicitAny: the definition is read for its metadata and lists only
  readonly definition: ServerDefinition<any>;
  /** Change notifications, watches and targets: `hub.resourceUpdated(uri)`, `hub.listChanged('resources')`. */
  readonly hub: SubscriptionHub;
  /**
   * The tasks of this process. A task lives where it was created, not in a per-request instance;
   * with several processes behind a balancer it is only visible on the process that made it.
   */
  readonly tasks: TaskStore;
  readonly stateCodec: RequestStateCodec<FlowState>;
  /** True when no `MCPKIT_STATE_KEY` was given: state and cursors only work against this process. */
  readonly keysEphemeral: boolean;
  /**
   * The SDK factory. `connection` instances live as long as a stdio connection or a 2025 HTTP
   * session and receive change notifications; `request` instances serve one 2026 HTTP request
   * and are never registered anywhere (the HTTP handler's notifier covers them).
   */
  factory(kind: 'connection' | 'request'): McpServerFactory;
  /** Closes tasks, watches and the context; safe to call more than once. */
  close(): Promise<void>;
}

/** @internal One SDK server instance: a connection, a 2025 session, or one 2026 HTTP request. */
export interface Instance {
  readonly app: App<AnyContext>;
  readonly era: Era;
  readonly mcp: McpServer;
  readonly authInfo: AuthInfo | undefined;
  /** The roots of this instance; present when the app was given directories. */
  readonly roots: InstanceRootsLike | undefined;
  /** Where tools with `task` set are offered as tasks; 2026-era instances only. */
  readonly tasks: TaskOffersLike | undefined;
  /** The app's running calls: each handler's work is tracked, and aborted when the app closes. */
  readonly calls: InFlightLike;
}

/** @internal See `in-flight.ts`. */
export interface InFlightLike {
  readonly signal: AbortSignal;
  track<T>(work: Promise<T>): Promise<T>;
}

/** @internal What an instance's roots offer its calls. */
export interface InstanceRootsLike {
  forCall(flow: Flow): Promise<RootSet>;
  current(): Promise<RootSet>;
}

/** @internal Where task-capable tools are offered (the tasks extension's front). */
export interface TaskOffersLike {
  offer(instance: Instance, def: AnyTool): void;
}
