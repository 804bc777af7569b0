#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { errorMessage } from '@mcpkit/core/errors';
import { runBench } from './bench.js';
import { FULL_SIZES, TINY_SIZES } from './fixtures.js';

const USAGE = `Usage: npm run bench -- [options]
  --server filesystem     server to compare (default filesystem)
  --rounds <n>            rounds; each runs every target once per scenario (default 5)
  --seed <n>              fixture seed (default 1)
  --sizes full|tiny       fixture sizes (default full)
  --scale <x>             multiply call counts, e.g. 0.5 for a quicker run (default 1)
  --scenarios <a,b>       only these scenario ids
  --targets <a,b>         only these targets: ours, ours-2026, official, floor
  --out <dir>             fixtures cache and results (default <repo>/.bench-out)`;

// dist/main.js and src/main.ts sit at the same depth, so the repository root is three levels up.
const DEFAULT_OUT = fileURLToPath(new URL('../../../.bench-out/', import.meta.url));

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${value}".`);
  return n;
}

const list = (value: string | undefined): string[] | undefined =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: 'string', default: 'filesystem' },
      rounds: { type: 'string' },
      seed: { type: 'string' },
      sizes: { type: 'string', default: 'full' },
      scale: { type: 'string' },
      scenarios: { type: 'string' },
      targets: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (positionals.length > 0) {
    // Seen when npm took the flags for its own config on the way through the root script and
    // passed only their values on.
    throw new Error(
      `Unexpected argument(s) ${positionals.join(' ')}. From the repository root, pass flags after a second "--": npm run bench -- -- --rounds 5.`,
    );
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.server !== 'filesystem')
    throw new Error(`Unknown --server "${values.server}"; this bench knows: filesystem.`);
  if (values.sizes !== 'full' && values.sizes !== 'tiny') throw new Error('--sizes must be full or tiny.');
  const scenarios = list(values.scenarios);
  const targets = list(values.targets);
  const result = await runBench({
    server: 'filesystem',
    rounds: Math.round(positiveNumber('rounds', values.rounds, 5)),
    seed: Math.round(positiveNumber('seed', values.seed, 1)),
    sizes: values.sizes === 'tiny' ? TINY_SIZES : FULL_SIZES,
    callScale: positiveNumber('scale', values.scale, 1),
    outDir: values.out ? resolve(values.out) : DEFAULT_OUT,
    ...(scenarios ? { scenarios } : {}),
    ...(targets ? { targets } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(result.markdown);
  process.stderr.write(`Every session: ${result.jsonPath}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${errorMessage(error)}\n${USAGE}\n`);
  process.exitCode = 1;
});
