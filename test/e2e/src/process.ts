/** Server bins as real processes over HTTP: start on a free port, stop with SIGTERM. */
import { type HttpBin, startHttpBin, userNode } from '@mcpkit/core/testing';

/** Starts `bin` over Streamable HTTP on 127.0.0.1 and a free port; resolves with its URL. */
export function startHttp(bin: string, args: string[], env: Record<string, string>): Promise<HttpBin> {
  return startHttpBin(bin, args, { node: userNode(), env: { ...process.env, MCPKIT_TOKEN: '', ...env } });
}
