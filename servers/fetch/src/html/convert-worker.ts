/**
 * The conversion worker: it turns one fetched body at a time into Markdown (page-content.ts) off
 * the server's event loop, so a page that is slow to convert delays only itself and can be
 * stopped by terminating this thread (convert-workers.ts does, at the deadline or on cancel).
 *
 * This file runs as compiled JavaScript (dist/html/convert-worker.js), beside the tsc output of
 * its siblings, also when the server runs as the bundle.
 */
import { parentPort } from 'node:worker_threads';
import { isUserError } from '@mcpkit/core/errors';
import type { ConvertReply, ConvertRequest, WorkerMessage } from './convert-protocol.js';
import { pageContent } from './page-content.js';

const port = parentPort;
if (!port) throw new Error('convert-worker.js runs only as a worker thread.');

function convert(request: ConvertRequest): ConvertReply {
  try {
    const page = pageContent(
      request.body,
      request.contentType,
      new URL(request.url),
      request.limits ? { limits: request.limits } : {},
    );
    return { id: request.id, ok: true, page };
  } catch (error) {
    if (isUserError(error)) return { id: request.id, ok: false, userError: error.message };
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (request: ConvertRequest) => {
  port.postMessage(convert(request) satisfies WorkerMessage);
});
port.postMessage({ ready: true } satisfies WorkerMessage);
