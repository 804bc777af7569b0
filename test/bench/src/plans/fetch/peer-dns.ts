/**
 * mcp-fetch-server refuses every private address with no way to allow one, so on its own it cannot
 * fetch from the bench's 127.0.0.1 server. It is measured through a preload that gives one made-up
 * name two answers: its address check (dns.promises.lookup) sees a public address, and the
 * connection (dns.lookup, which undici uses) goes to 127.0.0.1. The check's own lookup still runs,
 * so its cost stays in the peer's numbers; nothing else of the peer is changed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The name the peer is given in its URLs. */
export const PEER_HOST = 'bench.mcpkit.test';

const PRELOAD = `import dns from 'node:dns';
const HOST = ${JSON.stringify(PEER_HOST)};
const lookup = dns.lookup;
dns.lookup = function (host, options, callback) {
  if (host !== HOST) return lookup.apply(this, arguments);
  const cb = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options !== null && options.all;
  process.nextTick(() => (all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)));
};
const promised = dns.promises.lookup;
dns.promises.lookup = async function (host, options) {
  if (host !== HOST) return promised.apply(this, arguments);
  const answer = { address: '93.184.215.14', family: 4 };
  return options && options.all ? [answer] : answer;
};
`;

/** Writes the preload under `dir` and returns the NODE_OPTIONS that load it. */
export function peerDnsOptions(dir: string): string {
  const file = join(dir, 'peer-dns-preload.mjs');
  writeFileSync(file, PRELOAD);
  return `--import=${file}`;
}
