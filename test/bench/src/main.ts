#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { errorMessage } from '@mcpkit/core/errors';
import { runBench } from './bench.js';
import { benchServers, buildPlan, type Plan, scenariosOf } from './plan.js';

const USAGE = `Usage: npm run bench -- [options]
  --server <name>|all     a server folder, or every one in turn (default filesystem, else the first)
  --rounds <n>            rounds; each runs every target once per scenario (default 5)
  --seed <n>              fixture seed (default 1)
  --sizes full|tiny       fixture sizes of a server's own scenarios (default full)
  --scale <x>             multiply call counts, e.g. 0.5 for a quicker run (default 1)
  --scenarios <a,b>       only these scenario ids
  --targets <a,b>         only these targets: ours, ours-2026, floor and the server's peers (e.g. official)
  --out <dir>             fixtures cache and results (default <repo>/.bench-out)`;

/** Fails on an id no selected plan knows, listing those they do: a typo would silently run nothing. */
function checkIds(what: string, wanted: string[] | undefined, known: string[]): void {
  const unknown = wanted?.filter((id) => !known.includes(id)) ?? [];
  if (unknown.length > 0) {
    throw new Error(`Unknown --${what} ${unknown.join(', ')}; known: ${[...new Set(known)].join(', ')}.`);
  }
}

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
  const args = process.argv.slice(2);
  // `npm run bench -- -- --rounds 5` from the root hands the second "--" on: not the end of the flags here.
  if (args[0] === '--') args.shift();
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
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
  if (values.sizes !== 'full' && values.sizes !== 'tiny') throw new Error('--sizes must be full or tiny.');
  const sizes = values.sizes;
  const run = {
    rounds: Math.round(positiveNumber('rounds', values.rounds, 5)),
    seed: Math.round(positiveNumber('seed', values.seed, 1)),
    callScale: positiveNumber('scale', values.scale, 1),
    outDir: values.out ? resolve(values.out) : DEFAULT_OUT,
  };
  const servers = benchServers();
  const names = servers.map((s) => s.name);
  if (names.length === 0)
    throw new Error('No server found: no workspace package has a bin and a test/world.ts.');
  const name = values.server ?? (names.includes('filesystem') ? 'filesystem' : names[0]!);
  const chosen = name === 'all' ? servers : servers.filter((s) => s.name === name);
  if (chosen.length === 0) {
    throw new Error(`Unknown --server "${name}"; this bench knows: ${names.join(', ')} (or all).`);
  }
  const plans: Plan[] = [];
  for (const server of chosen) plans.push(await buildPlan(server, { sizes, outDir: run.outDir }));
  const scenarios = list(values.scenarios);
  const targets = list(values.targets);
  checkIds(
    'scenarios',
    scenarios,
    plans.flatMap((p) => scenariosOf(p).map((s) => s.id)),
  );
  checkIds(
    'targets',
    targets,
    plans.flatMap((p) => p.targets.map((t) => t.id)),
  );
  for (const [i, plan] of plans.entries()) {
    const result = await runBench(plan, {
      ...run,
      ...(scenarios ? { scenarios } : {}),
      ...(targets ? { targets } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`${i > 0 ? '\n' : ''}${result.markdown}`);
    process.stderr.write(`Every session: ${result.jsonPath}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${errorMessage(error)}\n${USAGE}\n`);
  process.exitCode = 1;
});
