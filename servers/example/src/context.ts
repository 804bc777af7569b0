import { type Call, type Lookup, withContext } from '@mcpkit/core/server';
import { NoteStore } from './notes/store.js';

/**
 * The notes server's own state, made once per app and read by every handler as `call.context`.
 * A server with handles (a database, a worker, an HTTP agent) keeps them here and releases them in
 * the definition's `context.close`; the notes need only their directory.
 */
export interface NotesContext {
  /** The notes directory given on the command line: the ceiling the client's roots may narrow. */
  readonly dir: string;
}

/**
 * `defineTool`, `definePrompt` and `defineResourceTemplate` with `call.context` typed as
 * {@link NotesContext}: every tool, resource and prompt of this server is defined through them.
 */
export const { defineTool, definePrompt, defineResourceTemplate } = withContext<NotesContext>();

/** What every notes handler gets. */
export type NotesCall = Call<NotesContext>;
/** What notes listings and completions get. */
export type NotesLookup = Lookup<NotesContext>;

/** The notes this call or listing may see: the notes directory, as far as the client's roots allow. */
export async function notesOf(call: NotesCall | NotesLookup): Promise<NoteStore> {
  return new NoteStore(await call.roots());
}

/** The names of the notes this call or listing may see, for listings and completion. */
export async function noteNames(call: NotesCall | NotesLookup): Promise<string[]> {
  return (await (await notesOf(call)).list()).map((n) => n.name);
}
