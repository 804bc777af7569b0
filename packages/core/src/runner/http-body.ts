/**
 * The capped POST body reader. The SDK's own 4 MiB cap is skipped once a parsed body is handed to
 * it (SDK 2.4: the 4 MiB cap is skipped for a parsed body), and the runner must parse the body itself to bound its nesting, so
 * the cap lives here: `Content-Length` is judged before a byte is read, and the running count
 * stops a chunked body that never declared its length.
 */
import type { IncomingMessage } from 'node:http';
import { type HttpRejection, PARSE_ERROR, reject, SERVER_ERROR } from './http-errors.js';

export type BodyResult = { ok: true; text: string } | { ok: false; rejection: HttpRejection };

function tooLarge(maxBytes: number): HttpRejection {
  // The rest of the body stays unread, so the connection cannot be reused.
  return reject(413, SERVER_ERROR, `Payload Too Large: the request body must not exceed ${maxBytes} bytes.`, {
    closeConnection: true,
  });
}

/**
 * Reads the whole body of `req` as UTF-8, refusing more than `maxBytes` (413) and bytes that are
 * not UTF-8 (400, -32700). A client that disconnects mid-body yields a rejection nobody will read.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.resolve({ ok: false, rejection: tooLarge(maxBytes) });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > maxBytes) {
        // Stop buffering at once; whatever else arrives is never stored.
        chunks.length = 0;
        req.pause();
        finish({ ok: false, rejection: tooLarge(maxBytes) });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      try {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, received));
        finish({ ok: true, text });
      } catch {
        finish({
          ok: false,
          rejection: reject(400, PARSE_ERROR, 'Parse error: the body is not valid UTF-8.'),
        });
      }
    };
    const aborted = () => reject(400, SERVER_ERROR, 'Bad Request: the request body was not completed.');
    const onError = () => finish({ ok: false, rejection: aborted() });
    const onClose = () => finish({ ok: false, rejection: aborted() });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
