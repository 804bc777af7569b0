/**
 * The conversion worker: it turns one fetched body at a time into Markdown (page-content.ts) or
 * into its list of links (links.ts) off the server's event loop, so a page that is slow to read
 * delays only itself and can be stopped by terminating this thread (convert-workers.ts does, at
 * the deadline or on cancel).
 *
 * This file runs as a bundle of its own (dist/html/convert-worker.js, the build's second
 * mcpkit-bundle step), found beside the bin by core's companionScript. It alone carries the DOM
 * libraries (linkedom, Readability, Turndown); the bin leaves them out, so they cost the server's
 * start nothing (test/bundle-split.test.ts holds both bundles to that).
 */
import { parentPort } from 'node:worker_threads';
import { isUserError } from '@mcpkit/core/errors';
import type { ConvertReply, ConvertRequest, TaskResult, WorkerMessage } from './convert-protocol.js';
import { pageLinks } from './links.js';
import { pageContent } from './page-content.js';

const port = parentPort;
if (!port) throw new Error('convert-worker.js runs only as a worker thread.');

function run({ task, body, contentType, url, limits }: ConvertRequest): TaskResult {
  const options = limits ? { limits } : {};
  if (task.kind === 'links')
    return pageLinks(body, contentType, new URL(url), { ...options, sameOrigin: task.sameOrigin });
  return pageContent(body, contentType, new URL(url), options);
}

function answer(request: ConvertRequest): ConvertReply {
  try {
    return { id: request.id, ok: true, result: run(request) };
  } catch (error) {
    if (isUserError(error)) return { id: request.id, ok: false, userError: error.message };
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (request: ConvertRequest) => {
  port.postMessage(answer(request) satisfies WorkerMessage);
});
port.postMessage({ ready: true } satisfies WorkerMessage);
