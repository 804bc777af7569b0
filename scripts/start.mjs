// `npm start`: serves every server in this checkout over Streamable HTTP on 127.0.0.1 with sample
// data, and prints the URLs and host config entries. Ctrl-C stops them all.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = mkdtempSync(join(tmpdir(), 'mcpkit-sample-'));

/** Each server: its bin, sample data it needs, and its arguments. Grows as servers land. */
const servers = [
  {
    name: 'example',
    bin: join(root, 'servers/example/dist/bin.js'),
    port: 3000,
    setup() {
      const dir = join(data, 'notes');
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'welcome.md'),
        '# Welcome\nThis is a sample note served by the mcpkit example server.\n',
      );
      writeFileSync(join(dir, 'todo.md'), '# To do\n- try summarize_notes\n- subscribe to note:///todo\n');
      return [dir];
    },
  },
  {
    name: 'filesystem',
    bin: join(root, 'servers/filesystem/dist/bin.js'),
    port: 3001,
    setup() {
      const dir = join(data, 'project');
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'README.md'), '# Sample project\nServed by the mcpkit filesystem server.\n');
      writeFileSync(
        join(dir, 'src', 'index.ts'),
        "export const greet = (name: string): string => 'hello ' + name;\n",
      );
      return [dir];
    },
  },
];

const children = [];
for (const server of servers) {
  const args = [server.bin, '--transport', 'http', '--port', String(server.port), ...server.setup()];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  children.push(child);
  child.stderr.on('data', (d) => {
    const text = d.toString();
    process.stderr.write(text);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) {
      const entry = { mcpServers: { [`mcpkit-${server.name}`]: { type: 'http', url } } };
      process.stdout.write(
        `\n${server.name}: ${url}\nHost config entry:\n${JSON.stringify(entry, null, 2)}\n`,
      );
      process.stdout.write(`Stdio instead: node ${args[0]} ${args.slice(5).join(' ')}\n`);
    }
  });
}
process.stdout.write(`Sample data in ${data}. Ctrl-C to stop.\n`);
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
