/**
 * The messages between the server and the conversion worker (convert-worker.ts). Everything in
 * them is plain data the structured clone carries; the body goes as a transferred ArrayBuffer.
 */

import type { PageContent } from './body-text.js';
import type { PageLinks } from './links.js';
import type { HtmlLimits } from './normalize-html.js';

/** What the worker makes of a body: Markdown as a raw=false fetch asks, or its list of links. */
export type ConvertTask = { kind: 'markdown' } | { kind: 'links'; sameOrigin: boolean };

/** The answer each kind of task gets. */
export interface TaskResults {
  markdown: PageContent;
  links: PageLinks;
}

/** Any task's answer. */
export type TaskResult = TaskResults[keyof TaskResults];

/** One body to work on. */
export interface ConvertRequest {
  id: number;
  task: ConvertTask;
  /** The body's bytes, in a buffer of their own that is transferred, not copied. */
  body: Uint8Array;
  contentType: string;
  /** The page URL (`href`). */
  url: string;
  limits?: HtmlLimits;
}

/** The worker's answer to one request. */
export type ConvertReply =
  | { id: number; ok: true; result: TaskResult }
  /** A refusal written for the user (a UserError in the worker), carried as its sentence. */
  | { id: number; ok: false; userError: string }
  /** Anything else that failed; the message is for logs, never for the client. */
  | { id: number; ok: false; error: string };

/** Sent once when the worker has loaded the converter and can take requests. */
export interface ConvertReady {
  ready: true;
}

export type WorkerMessage = ConvertReply | ConvertReady;
