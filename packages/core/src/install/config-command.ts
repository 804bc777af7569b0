/**
 * `<bin> config <host> [options] [server arguments]`: prints the entry that adds this server to a
 * host, and nothing else on stdout (so `> file` captures exactly the entry); one line on stderr
 * says where it goes. Server arguments are passed on exactly as given: nothing is checked or
 * resolved, since only the server knows what they mean.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage, UserError } from '../errors/index.js';
import { npxCacheAdvice, relativePathAdvice } from './advice.js';
import { cursorInstallLink, vscodeInstallLink } from './deep-links.js';
import { HOST_INFO, hostEntry } from './hosts.js';
import { launchOf } from './launch.js';
import { HOSTS, type HostId, type LaunchForm, type LaunchSpec } from './types.js';

/** What the command needs of a bin: its name and its package.json. */
export interface ConfigBin {
  bin: string;
  packageJson: URL;
}

/** Where the command writes and what it knows of the running Node; tests pass their own. */
export interface ConfigIo {
  out(text: string): void;
  err(text: string): void;
  platform: NodeJS.Platform;
  execPath: string;
  /** The folder relative server arguments are read against (the process's own by default). */
  cwd?: string;
}

const processIo: ConfigIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  platform: process.platform,
  execPath: process.execPath,
};

interface ConfigArgs {
  help: boolean;
  host?: string;
  absolute: boolean;
  http?: string;
  windows: boolean;
  cli: boolean;
  link: boolean;
  serverArgs: string[];
}

const FLAGS = new Set(['--absolute', '--windows', '--cli', '--link', '--help', '-h']);

/** Splits our options from the server's arguments: anything not ours, and all after `--`, is the server's. */
export function parseConfigArgs(argv: readonly string[]): ConfigArgs {
  const parsed: ConfigArgs = {
    help: false,
    absolute: false,
    windows: false,
    cli: false,
    link: false,
    serverArgs: [],
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') {
      parsed.serverArgs.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--http' || arg.startsWith('--http=')) {
      const value = arg === '--http' ? argv[++i] : arg.slice('--http='.length);
      if (value === undefined || value === '')
        throw new UserError('--http needs the URL of the running server.');
      parsed.http = value;
    } else if (FLAGS.has(arg)) {
      if (arg === '--help' || arg === '-h') parsed.help = true;
      else parsed[arg.slice(2) as 'absolute' | 'windows' | 'cli' | 'link'] = true;
    } else if (parsed.host === undefined) {
      parsed.host = arg;
    } else {
      parsed.serverArgs.push(arg);
    }
  }
  return parsed;
}

function isHost(value: string): value is HostId {
  return (HOSTS as readonly string[]).includes(value);
}

/** The key hosts list a server under: the package name without its scope and `server-` prefix. */
export function shortName(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, '').replace(/^server-|-server$/, '');
}

function readManifest(bin: ConfigBin): { name: string; bin?: string | Record<string, string> } {
  return JSON.parse(readFileSync(bin.packageJson, 'utf8')) as {
    name: string;
    bin?: string | Record<string, string>;
  };
}

/** The installed bin script, symlinks followed, for the absolute form. */
function installedScript(bin: ConfigBin, manifest: ReturnType<typeof readManifest>): string {
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin.bin];
  if (relative === undefined) {
    throw new UserError(
      `This package's package.json has no "${bin.bin}" bin, so there is no script for --absolute.`,
    );
  }
  return realpathSync(resolve(dirname(fileURLToPath(bin.packageJson)), relative));
}

function httpUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new UserError(
      '--http needs the http:// or https:// URL the server printed when started with --transport http, e.g. http://127.0.0.1:3000/mcp.',
    );
  }
  // The parsed form: the URL parser drops tabs and line breaks, which the raw value could carry into a command line.
  return url.href;
}

export function configHelp(bin: string, packageName: string): string {
  const width = Math.max(...HOSTS.map((h) => h.length));
  const hosts = HOSTS.map((h) => `  ${h.padEnd(width)}  ${HOST_INFO[h].title}`).join('\n');
  return `Usage: ${bin} config <host> [options] [server arguments]

Prints the entry that adds this server to a host on stdout, and where it goes on stderr.

Hosts:
${hosts}

Forms:
  (default)       npx -y ${packageName} [server arguments]
  --absolute      this Node and this installed copy, by absolute path: no PATH, nvm or npx shims involved
  --http <url>    a server already started with --transport http (for hosts that take a URL)

Options:
  --windows       the Windows form: cmd /c npx, and Command Prompt quoting (the default on Windows)
  --cli           vscode: a code --add-mcp command line instead of mcp.json
  --link          vscode, cursor: an install link instead of the entry
  -h, --help      show this help

Server arguments are passed on as given; put them after -- when one looks like an option above.
`;
}

/** Runs the command; returns the exit code (0, or 2 for a command line that cannot work). */
export function configCommand(bin: ConfigBin, argv: readonly string[], io: ConfigIo = processIo): number {
  try {
    const manifest = readManifest(bin);
    const args = parseConfigArgs(argv);
    if (args.help) {
      io.out(configHelp(bin.bin, manifest.name));
      return 0;
    }
    const known = HOSTS.join(', ');
    if (args.host === undefined) throw new UserError(`Name a host: one of ${known}.`);
    if (!isHost(args.host))
      throw new UserError(`"${args.host}" is not a host this command knows; use one of ${known}.`);
    if (args.absolute && args.http !== undefined) throw new UserError('Choose one of --absolute and --http.');
    if (args.http !== undefined && args.serverArgs.length > 0) {
      throw new UserError(
        'An HTTP entry takes no server arguments (they belong to the server started with --transport http), so drop them or drop --http.',
      );
    }
    const spec: LaunchSpec = {
      name: shortName(manifest.name),
      packageName: manifest.name,
      bin: bin.bin,
      args: args.serverArgs,
    };
    const form: LaunchForm =
      args.http !== undefined
        ? { kind: 'http', url: httpUrl(args.http) }
        : args.absolute
          ? { kind: 'absolute', node: io.execPath, script: installedScript(bin, manifest) }
          : { kind: 'npx' };
    const windows = args.windows || io.platform === 'win32';
    const advice = [
      ...relativePathAdvice(spec.args, io.cwd ?? process.cwd()),
      ...(form.kind === 'absolute' ? npxCacheAdvice(form.script, manifest.name) : []),
    ];
    if (args.link) {
      io.out(`${installLink(args.host, spec, form, windows)}\n`);
      io.err(`Open this link to install the server in ${HOST_INFO[args.host].title}.\n`);
    } else {
      const entry = hostEntry(args.host, spec, { form, windows, cli: args.cli });
      io.out(entry.text);
      io.err(`${entry.where}\n`);
    }
    for (const line of advice) io.err(`Note: ${line}\n`);
    return 0;
  } catch (error) {
    io.err(`${bin.bin}: ${errorMessage(error)}\nRun "${bin.bin} config --help" for usage.\n`);
    return 2;
  }
}

function installLink(host: HostId, spec: LaunchSpec, form: LaunchForm, windows: boolean): string {
  const launch = launchOf(spec, form, windows);
  if (host === 'vscode') return vscodeInstallLink(spec.name, launch);
  if (host === 'cursor') return cursorInstallLink(spec.name, launch);
  throw new UserError(
    `--link is for vscode and cursor; ${HOST_INFO[host].title} has no install link, so drop --link.`,
  );
}
