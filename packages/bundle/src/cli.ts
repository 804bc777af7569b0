/**
 * `mcpkit-bundle`: the build tool's commands, run from a server's package folder.
 * - `mcpkit-bundle [entry] [outfile]` bundles the bin (default `src/bin.ts` → `dist/bin.js`);
 * - `mcpkit-bundle release [--out <dir>]` makes the `.mcpb` and `server.json`;
 * - `mcpkit-bundle readme [...]` rewrites the README's generated sections.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { bundleBin } from './bundle.js';
import { readmeCommand } from './readme/command.js';
import { releaseCommand } from './release/command.js';

const USAGE = `Usage: mcpkit-bundle [entry] [outfile]
       mcpkit-bundle release [--out <dir>]
       mcpkit-bundle readme [options]
Bundles a bin (default src/bin.ts, which tsc leaves out of its emit) into one file (default
dist/bin.js) and writes its third-party licenses beside it (dist/bin.js.LICENSE.txt). Run it from
the package folder, after tsc -b has built the rest of dist/ (files the bin loads at run time,
such as worker scripts, stay there).
release makes the server's MCP Bundle and MCP Registry server.json (see mcpkit-bundle release --help);
readme rewrites the generated sections of the server's README.md.`;

/** esbuild reports failures as a list of messages; the first says what went wrong. */
function describe(error: unknown): string {
  const first = (error as { errors?: { text?: string }[] }).errors?.[0]?.text;
  return first ?? (error instanceof Error ? error.message : String(error));
}

async function bundle(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const flag = args.find((a) => a.startsWith('-'));
  if (flag || args.length > 2) {
    throw new Error(`Unexpected argument ${flag ?? args[2]}; run mcpkit-bundle --help for the usage.`);
  }
  const [entry = 'src/bin.ts', outfile = 'dist/bin.js'] = args;
  if (!existsSync(resolve(entry))) {
    throw new Error(`${entry} does not exist; run mcpkit-bundle from the package folder, or name the entry.`);
  }
  const result = await bundleBin({ entry, outfile }).catch((error: unknown) => {
    throw new Error(`Could not bundle ${entry}: ${describe(error)}`);
  });
  const kib = Math.round(result.bytes / 1024);
  const external =
    result.external.length > 0 ? `; native, left in node_modules: ${result.external.join(', ')}` : '';
  process.stdout.write(
    `${relative('.', result.outfile)}: ${kib} KiB, ${result.packages.length} third-party packages (licenses in ${relative('.', result.noticesFile)})${external}\n`,
  );
}

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command === 'release') return releaseCommand(rest);
  if (command === 'readme') return readmeCommand(rest);
  return bundle(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`mcpkit-bundle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
