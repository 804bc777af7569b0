/**
 * The four kinds of handler, each written as a value: a server's `src/tools/…`, `src/resources/…`
 * and `src/prompts/…` files each export one, and `createApp` takes them as lists. The functions
 * only infer types; annotate the handler's `call` with the server's `Call<Context>` to type
 * `call.context`.
 */
import type * as z from 'zod';
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
  ToolInput,
} from './types.js';

/**
 * Defines a tool, its argument and result types inferred from its schemas.
 *
 * @example
 * ```ts
 * export const echo = defineTool({
 *   name: 'echo', title: 'Echo', description: 'Returns its input.',
 *   input: z.object({ text: z.string() }), annotations: { readOnlyHint: true },
 *   run: ({ text }) => ({ text }),
 * });
 * ```
 */
export function defineTool<I extends ToolInput, O extends z.ZodObject | undefined = undefined, C = undefined>(
  def: ToolDefinition<I, O, C>,
): ToolDefinition<I, O, C> {
  return def;
}

/**
 * Defines a prompt; its arguments may complete (ranked and capped by core).
 *
 * @example
 * ```ts
 * export const greet = definePrompt({
 *   name: 'greet', title: 'Greet', description: 'Greets someone by name.',
 *   args: z.object({ name: z.string() }),
 *   complete: { name: () => ['Ada', 'Grace'] },
 *   get: ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name}.` } }] }),
 * });
 * ```
 */
export function definePrompt<A extends z.ZodObject, C = undefined>(
  def: PromptDefinition<A, C>,
): PromptDefinition<A, C> {
  return def;
}

/**
 * Defines one resource at a fixed URI.
 *
 * @example
 * ```ts
 * export const readme = defineResource({
 *   name: 'readme', uri: 'notes:///README', title: 'Read me', description: 'How the notes work.',
 *   mimeType: 'text/markdown',
 *   read: (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Notes' }] }),
 * });
 * ```
 */
export function defineResource<C = undefined>(def: ResourceDefinition<C>): ResourceDefinition<C> {
  return def;
}

/**
 * Defines a family of resources under a URI template, with their listing, the completion of the
 * template's variables, and how to watch one for changes.
 *
 * @example
 * ```ts
 * export const greeting = defineResourceTemplate({
 *   name: 'greeting', uriTemplate: 'greeting:///{name}', title: 'Greeting', description: 'Greets someone.',
 *   list: () => ['Ada', 'Grace'].map((name) => ({ uri: `greeting:///${name}`, name })),
 *   complete: { name: () => ['Ada', 'Grace'] },
 *   read: (uri, { name }) => ({ contents: [{ uri: uri.href, text: `Hello, ${name}!` }] }),
 * });
 * ```
 */
export function defineResourceTemplate<C = undefined>(
  def: ResourceTemplateDefinition<C>,
): ResourceTemplateDefinition<C> {
  return def;
}

/** The four `define…` functions with the server's context type fixed: see {@link withContext}. */
export interface ContextDefiners<C> {
  defineTool<I extends ToolInput, O extends z.ZodObject | undefined = undefined>(
    def: ToolDefinition<I, O, C>,
  ): ToolDefinition<I, O, C>;
  definePrompt<A extends z.ZodObject>(def: PromptDefinition<A, C>): PromptDefinition<A, C>;
  defineResource(def: ResourceDefinition<C>): ResourceDefinition<C>;
  defineResourceTemplate(def: ResourceTemplateDefinition<C>): ResourceTemplateDefinition<C>;
}

/**
 * The `define…` functions for a server with a context, so every handler's `call.context` (and a
 * listing's `lookup.context`) has the server's type without annotations. Call it once, in the
 * server's `src/context.ts`, and import the definers from there.
 *
 * @example
 * ```ts
 * export interface NotesContext { readonly dir: string }
 * export const { defineTool, definePrompt, defineResourceTemplate } = withContext<NotesContext>();
 * // src/tools/read-note.ts: run: async ({ name }, call) => ({ text: await read(call.context.dir, name) })
 * ```
 */
export function withContext<C>(): ContextDefiners<C> {
  return {
    defineTool: defineTool as ContextDefiners<C>['defineTool'],
    definePrompt: definePrompt as ContextDefiners<C>['definePrompt'],
    defineResource: defineResource as ContextDefiners<C>['defineResource'],
    defineResourceTemplate: defineResourceTemplate as ContextDefiners<C>['defineResourceTemplate'],
  };
}
