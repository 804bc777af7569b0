import type {
  HandlerResultTypeMap,
  McpServer,
  RequestTypeMap,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { CursorCodec } from './cursor-codec.js';
import { assertPageSize } from './page-size.js';
import { type Page, paginateArray } from './paginate-array.js';

/** Which field of each list result holds the items. */
const LIST_FIELDS = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
} as const;

/** The four spec list methods that take a cursor. */
export type ListMethod = keyof typeof LIST_FIELDS;

export const LIST_METHODS: readonly ListMethod[] = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
];

type ListHandler<M extends ListMethod> = (
  request: RequestTypeMap[M],
  ctx: ServerContext,
) => HandlerResultTypeMap[M] | Promise<HandlerResultTypeMap[M]>;

type Pager = <T>(items: T[], keyOf: (item: T) => string) => Page<T>;
type Slicer<M extends ListMethod> = (
  result: HandlerResultTypeMap[M],
  pager: Pager,
) => HandlerResultTypeMap[M];

// One slicer per method keeps each result's type exact; the key is what stays stable while the
// list changes (names are unique per kind, resources are identified by URI).
const SLICERS: { [M in ListMethod]: Slicer<M> } = {
  'tools/list': (result, pager) => {
    const { page, nextCursor } = pager(result.tools, (tool) => tool.name);
    return nextCursor === undefined ? { ...result, tools: page } : { ...result, tools: page, nextCursor };
  },
  'prompts/list': (result, pager) => {
    const { page, nextCursor } = pager(result.prompts, (prompt) => prompt.name);
    return nextCursor === undefined ? { ...result, prompts: page } : { ...result, prompts: page, nextCursor };
  },
  'resources/list': (result, pager) => {
    const { page, nextCursor } = pager(result.resources, (resource) => resource.uri);
    return nextCursor === undefined
      ? { ...result, resources: page }
      : { ...result, resources: page, nextCursor };
  },
  'resources/templates/list': (result, pager) => {
    const { page, nextCursor } = pager(result.resourceTemplates, (template) => template.name);
    return nextCursor === undefined
      ? { ...result, resourceTemplates: page }
      : { ...result, resourceTemplates: page, nextCursor };
  },
};

export interface ListPaginationOptions {
  codec: CursorCodec;
  /** Items per page for every list method. */
  pageSize: number;
}

const installed = new WeakSet<object>();
const pagingItself = new WeakSet<object>();

/**
 * Marks a list handler that reads `params.cursor` and pages on its own (for example one built on
 * `paginateSource`), so {@link installListPagination} leaves it alone instead of slicing it again.
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/server';
 * const mcp = new McpServer({ name: 'files', version: '1.0.0' });
 * const resources = [{ uri: 'file:///srv/a.md', name: 'a.md' }];
 * const options = { codec: app.cursors, list: 'resources/list', pageSize: 100 };
 * mcp.server.setRequestHandler('resources/list', pagesItself(async (req) => {
 *   const { page, nextCursor } = paginateArray(resources, { ...options, cursor: req.params?.cursor });
 *   return { resources: page, nextCursor };
 * }));
 * ```
 */
export function pagesItself<H extends (...args: never[]) => unknown>(handler: H): H {
  pagingItself.add(handler);
  return handler;
}

/**
 * Adds cursor pagination to McpServer's `tools/list`, `prompts/list`, `resources/list` and
 * `resources/templates/list`, which in SDK 2.4 ignore `cursor` and return everything.
 *
 * McpServer installs those handlers on the first `registerTool` / `registerResource` /
 * `registerPrompt`, through `mcp.server.setRequestHandler`; this wraps that method so each list
 * handler is installed already paged: the full list is built, then sliced by the client's cursor,
 * and `nextCursor` is set when more follows. Call it right after `new McpServer(…)`, before any
 * registration, and do not declare `tools`/`resources`/`prompts` in the constructor's capabilities
 * (that installs the handlers at once); registering declares them anyway.
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/server';
 * const mcp = new McpServer({ name: 'git', version: '1.0.0' });
 * installListPagination(mcp, { codec: app.cursors, pageSize: 100 });
 * mcp.registerTool('git_status', { description: 'Shows the working tree status.' }, () => ({ content: [] }));
 * ```
 */
export function installListPagination(mcp: McpServer, options: ListPaginationOptions): void {
  const { codec, pageSize } = options;
  assertPageSize(pageSize);
  const server = mcp.server;
  if (installed.has(server)) {
    throw new Error(
      'installListPagination was already called for this server; a second wrapper would page twice.',
    );
  }
  for (const method of LIST_METHODS) {
    try {
      server.assertCanSetRequestHandler(method);
    } catch {
      throw new Error(
        `installListPagination must run before "${method}" has a handler: call it before registering ` +
          'tools, resources or prompts, and leave them out of the McpServer constructor capabilities.',
      );
    }
  }
  installed.add(server);

  const original = server.setRequestHandler;
  // The replacement keeps every overload of the original: anything that is not a plain
  // (list method, handler) registration is passed through untouched.
  server.setRequestHandler = (method: string, ...rest: unknown[]): void => {
    const [handler] = rest;
    if (
      isListMethod(method) &&
      rest.length === 1 &&
      typeof handler === 'function' &&
      !pagingItself.has(handler)
    ) {
      // For a spec method the SDK's two-argument overload types the handler exactly so.
      const inner = handler as ListHandler<typeof method>;
      Reflect.apply(original, server, [method, pagedHandler(method, inner, codec, pageSize)]);
      return;
    }
    Reflect.apply(original, server, [method, ...rest]);
  };
}

function pagedHandler<M extends ListMethod>(
  method: M,
  inner: ListHandler<M>,
  codec: CursorCodec,
  pageSize: number,
): ListHandler<M> {
  const slice: Slicer<M> = SLICERS[method];
  return async (request, ctx) => {
    const cursor = request.params?.cursor;
    // Decode before doing the work, so a bad cursor costs nothing and fails the same on every list.
    if (cursor !== undefined) codec.decode(method, cursor);
    const result = await inner(request, ctx);
    return slice(result, (items, keyOf) =>
      paginateArray(items, { codec, list: method, cursor, pageSize, keyOf }),
    );
  };
}

function isListMethod(method: string): method is ListMethod {
  return Object.hasOwn(LIST_FIELDS, method);
}
