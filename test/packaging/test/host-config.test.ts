/**
 * Every installed server bin's `config` command, checked the way a host uses its output: for each
 * host, the absolute-form entry is parsed in that host's own format and exactly the command,
 * arguments and environment it names are started and must answer `initialize`; and the npx form
 * is run from the folder the tarballs were installed in, where npx finds the packed package.
 */
import { spawnSync } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { HOSTS } from '@mcpkit/core/install';
import type { TestWorld } from '@mcpkit/core/testing';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, inject, it } from 'vitest';
import { run } from '../src/run.js';
import { binsOf } from '../src/workspaces.js';
import { expectServesWorld, worldOf } from '../src/world-session.js';

const packed = inject('packed');
const project = inject('installed');
const servers = packed.filter((p) => p.path.startsWith('servers/'));

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

type Servers = Record<string, Record<string, unknown>>;

/** The one server in a host's map, under whatever key the host uses. */
function only(map: Servers | undefined): Record<string, unknown> {
  expect(Object.keys(map ?? {})).toHaveLength(1);
  return Object.values(map ?? {})[0] as Record<string, unknown>;
}

function asLaunch(server: Record<string, unknown>): Launch {
  expect(typeof server.command).toBe('string');
  expect(Array.isArray(server.args)).toBe(true);
  return {
    command: server.command as string,
    args: server.args as string[],
    env: (server.env as Record<string, string> | undefined) ?? {},
  };
}

/** A `claude mcp add` line as sh splits it: `--env K=V` options, the name, `--`, the command. */
function claudeCodeLaunch(line: string): Launch {
  const script = `claude() { printf '%s\\0' "$@"; }\n${line}`;
  const split = spawnSync('sh', ['-c', script], { encoding: 'utf8' });
  expect(split.status, split.stderr).toBe(0);
  const argv = split.stdout.split('\0').slice(0, -1);
  expect(argv.slice(0, 2)).toEqual(['mcp', 'add']);
  const dash = argv.indexOf('--');
  const env: Record<string, string> = {};
  for (let i = 2; i < dash - 1; i += 2) {
    expect(argv[i]).toBe('--env');
    const [key, ...value] = (argv[i + 1] as string).split('=');
    env[key as string] = value.join('=');
  }
  const [command, ...args] = argv.slice(dash + 1);
  return { command: command as string, args, env };
}

/** Reads an entry in its host's format, as that host would. */
function launchOf(host: string, text: string): Launch {
  switch (host) {
    case 'claude-code':
      return claudeCodeLaunch(text);
    case 'codex':
      return asLaunch(only((parseToml(text) as { mcp_servers?: Servers }).mcp_servers));
    case 'vscode': {
      const server = only((JSON.parse(text) as { servers?: Servers }).servers);
      expect(server.type).toBe('stdio');
      return asLaunch(server);
    }
    case 'zed':
      return asLaunch(only((JSON.parse(text) as { context_servers?: Servers }).context_servers));
    default:
      return asLaunch(only((JSON.parse(text) as { mcpServers?: Servers }).mcpServers));
  }
}

/** Starts the entry `entryOf` makes for the world's arguments, as a host would, and checks it serves the world. */
async function expectAnswers(
  world: TestWorld,
  dir: string,
  entryOf: (args: string[]) => Promise<Launch>,
  cwd?: string,
) {
  await expectServesWorld(world, {
    dir,
    launch: async (built) => ({ ...(await entryOf(built.args)), ...(cwd ? { cwd } : {}) }),
    eras: ['legacy'],
    check: (session) => {
      expect(session.client.getServerVersion()?.name).toBeTruthy();
    },
  });
}

describe.each(servers)('$name', (pkg) => {
  const [bin] = Object.keys(binsOf(pkg.manifest));
  const config = async (args: string[]) => {
    const result = await run(join(project, 'node_modules', '.bin', bin as string), ['config', ...args], {
      cwd: project,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    return result.stdout;
  };

  it.each(HOSTS)(
    'the --absolute entry for %s starts and answers initialize',
    async (host) => {
      const world = await worldOf(pkg.name, pkg.path);
      await expectAnswers(world, join(project, 'data', `${bin}-${host}`), async (args) => {
        const launch = launchOf(host, await config([host, '--absolute', '--', ...args]));
        expect(isAbsolute(launch.command)).toBe(true);
        expect(isAbsolute(launch.args[0] as string)).toBe(true);
        expect(launch.args.slice(1)).toEqual(args);
        return launch;
      });
    },
    60_000,
  );

  it('the npx entry, run where the tarballs are installed, starts the packed package', async () => {
    const world = await worldOf(pkg.name, pkg.path);
    const dir = join(project, 'data', `${bin}-npx`);
    await expectAnswers(
      world,
      dir,
      async (args) => {
        const launch = launchOf('cursor', await config(['cursor', '--', ...args]));
        expect(launch).toEqual({ command: 'npx', args: ['-y', pkg.name, ...args], env: {} });
        return launch;
      },
      project,
    );
  }, 60_000);
});
