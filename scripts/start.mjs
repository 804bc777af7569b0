// `npm start`: serves every server in this checkout over Streamable HTTP on 127.0.0.1, each on the
// sample world its test/world.ts builds, and prints the URLs and host config entries. Ctrl-C stops
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

const children = [];
for (const { server, built, port } of plan) {
  const args = [server.bin, '--transport', 'http', '--port', String(port), ...built.args];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  children.push(child);
  child.stderr.on('data', (d) => {
    const text = d.toString();
    process.stderr.write(text);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) {
      const entry = { mcpServers: { [server.command]: { type: 'http', url } } };
      process.stdout.write(
        `\n${server.name}: ${url}\nHost config entry:\n${JSON.stringify(entry, null, 2)}\n`,
      );
      process.stdout.write(`Stdio instead: node ${server.bin} ${built.args.join(' ')}\n`);
    }
  });
}
process.stdout.write(`Sample data in ${data}. Ctrl-C to stop.\n`);
const stop = async () => {
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(plan.map(({ built }) => built.close?.()));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
