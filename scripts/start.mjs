// `npm start`: serves every server in this checkout over Streamable HTTP on 127.0.0.1, each on the
// sample world its test/world.ts builds, and prints each URL with the entry every host needs for it
// (from the same code as `<bin> config <host> --http <url>`). Ctrl-C stops
// them all. Servers are found from the workspace globs, so a new server folder is served as is.
//
//   node scripts/start.mjs [--root DIR] [--port 3000] [--dry-run]
//
// --dry-run builds the worlds, prints what would be started (one JSON line per server) and exits.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { errorMessage } from '@mcpkit/core/errors';
import { HOST_INFO, HOSTS, hostEntry, shortName } from '@mcpkit/core/install';
import { discoverServers } from '@mcpkit/core/testing';
// The worlds are TypeScript; vite (which the tests already run on) loads them without a build.
import { runnerImport } from 'vite';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    port: { type: 'string', default: '3000' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const root = resolve(values.root);
const data = mkdtempSync(join(tmpdir(), 'mcpkit-sample-'));

const plan = [];
for (const [i, server] of discoverServers(root).entries()) {
  const { module } = await runnerImport(server.world);
  const dir = join(data, server.name);
  mkdirSync(dir);
  const built = await module.world.setup(dir);
  plan.push({ server, built, port: Number(values.port) + i });
}

if (values['dry-run']) {
  for (const { server, built, port } of plan) {
    process.stdout.write(
      `${JSON.stringify({ name: server.name, bin: server.bin, port, args: built.args })}\n`,
    );
    await built.close?.();
  }
  rmSync(data, { recursive: true, force: true });
  process.exit(0);
}

/** Every host's entry for a running server, or the one sentence saying why a host cannot take it. */
function hostEntries(server, url, args) {
  const spec = {
    name: shortName(server.packageName),
    packageName: server.packageName,
    bin: server.command,
    args: [],
  };
  let text = `\n${server.name}: ${url}\n`;
  for (const host of HOSTS) {
    text += `\n${HOST_INFO[host].title}:\n`;
    try {
      const entry = hostEntry(host, spec, { form: { kind: 'http', url } });
      text += `${entry.text}(${entry.where})\n`;
    } catch (error) {
      text += `${errorMessage(error)}\n`;
    }
  }
  return `${text}\nStdio instead: node ${server.bin} ${args.join(' ')}\n`;
}

const children = [];
for (const { server, built, port } of plan) {
  const args = [server.bin, '--transport', 'http', '--port', String(port), ...built.args];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  children.push(child);
  child.stderr.on('data', (d) => {
    const text = d.toString();
    process.stderr.write(text);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) process.stdout.write(hostEntries(server, url, built.args));
  });
}
process.stdout.write(`Sample data in ${data}. Ctrl-C to stop.\n`);
const stop = async () => {
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(plan.map(({ built }) => built.close?.()));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
