import { createRequestStateCodec, UriTemplate } from '@modelcontextprotocol/server';
import { DEFAULT_OUTPUT_LIMIT_BYTES } from '../limits/output-limit.js';
import { silentLogger } from '../logging/logger.js';
import type { FlowState } from '../mrtr/flow.js';
import { createCursorCodec } from '../pagination/cursor-codec.js';
import { SubscriptionHub } from '../subscriptions/hub.js';
import { TaskStore } from '../tasks/store.js';
import { appLookup } from './call.js';
import { InFlight } from './in-flight.js';
import { type Capabilities, createInstance } from './instance.js';
import { resolveKeys } from './keys.js';
import type { App, AppOptions, ServerDefinition } from './types.js';

/** How long closing waits for aborted calls to wind down before the context is closed. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Builds a server app: one definition, served in both protocol eras over any transport. The
 * context is made here, once for the whole process (every 2026 request instance shares it), and
 * closed by `app.close()`, which the runner calls on SIGINT, SIGTERM and the end of stdin.
 *
 * @example
 * ```ts
 * const echo = defineTool({
 *   name: 'echo', title: 'Echo', description: 'Returns its input.',
 *   input: z.object({ text: z.string() }), annotations: { readOnlyHint: true },
 *   run: ({ text }) => ({ text }),
 * });
 * const app = createApp({ name: 'mcpkit-echo', version: '1.0.0', tools: [echo] });
 * serveAppStdio(app);
 * ```
 */
export function createApp<C = undefined>(definition: ServerDefinition<C>, options: AppOptions = {}): App<C> {
  const log = options.log ?? silentLogger;
  const keys = options.keys ?? resolveKeys(process.env, log);
  const caps: Capabilities = {
    subscribe: true,
    completions: true,
    logging: true,
    ...definition.capabilities,
  };
  const hub = new SubscriptionHub({
    log,
    ...(options.notifyDebounceMs !== undefined ? { debounceMs: options.notifyDebounceMs } : {}),
    ...(options.maxWatches !== undefined ? { maxWatches: options.maxWatches } : {}),
  });
  const stateCodec = createRequestStateCodec<FlowState>({
    key: keys.requestState,
    ttlSeconds: 900,
    // A state is only good for the method it was minted for and the principal that started it.
    bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
  });
  const tasks = new TaskStore(options.tasks);
  const calls = new InFlight();
  let closing: Promise<void> | undefined;

  const app: App<C> = {
    definition,
    name: definition.name,
    version: definition.version,
    // Set just below, once the app it is given exists.
    context: undefined as C,
    readOnly: options.readOnly ?? false,
    pageSize: options.pageSize ?? 100,
    resultPageSize: options.resultPageSize ?? options.pageSize ?? 10_000,
    outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
    rootsCeiling: options.roots,
    log,
    hub,
    tasks,
    stateCodec,
    cursors: createCursorCodec({ key: keys.cursors }),
    keysEphemeral: keys.ephemeral,
    factory: (kind) => (rc) => {
      if (calls.closing) throw new Error(`${definition.name} is shutting down.`);
      return createInstance(app, caps, kind, rc, calls);
    },
    close: () => {
      closing ??= (async () => {
        // Calls still running are aborted and given a moment to wind down: the context they
        // use must outlive them.
        tasks.close();
        await calls.drain(CLOSE_GRACE_MS);
        await hub.close();
        await definition.context?.close?.(app.context);
      })();
      return closing;
    },
  };
  if (definition.context) (app as { context: C }).context = definition.context.create(app);
  // Watches are the app's, not an instance's: a subscribed URI is watched once for everyone.
  const lookup = appLookup(app);
  for (const resource of definition.resources ?? []) {
    const watch = resource.watch;
    if (!watch) continue;
    // A resource watches its own URIs only: its URI, or what its template matches.
    const template = 'uri' in resource ? undefined : new UriTemplate(resource.uriTemplate);
    const owns = (uri: string) => ('uri' in resource ? uri === resource.uri : template?.match(uri) != null);
    hub.addWatchProvider((uri) => (owns(uri) ? watch(uri, lookup) : undefined));
  }
  return app;
}
