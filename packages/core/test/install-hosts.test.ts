import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  commandLine,
  type EntryOptions,
  HOSTS,
  type HostId,
  hostEntry,
  type LaunchSpec,
} from '../src/install/index.js';
import {
  AWKWARD_ARGS,
  CMD_LINE_REFUSAL,
  CMD_NPX_REFUSAL,
  CMD_SAFE_ARGS,
  cmdArgv,
  shArgv,
} from './install-kit.js';

const spec: LaunchSpec = {
  name: 'filesystem',
  packageName: '@mcpkit/server-filesystem',
  bin: 'mcpkit-filesystem',
  args: AWKWARD_ARGS,
  env: { MCPKIT_READ_ONLY: 'true', ODD: 'a "quoted" $value' },
};

const NODE = '/opt/node v22/bin/node';
const SCRIPT = '/srv/app/node_modules/@mcpkit/server-filesystem/dist/bin.js';
const URL = 'http://127.0.0.1:3000/mcp';

interface Stdio {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The same server with only the arguments `cmd /c npx` can carry. */
const cmdSpec: LaunchSpec = { ...spec, args: CMD_SAFE_ARGS };

/** What each form must start, whatever the host's format. */
const EXPECTED: Record<'npx' | 'npxWindows' | 'absolute', Stdio> = {
  npx: { command: 'npx', args: ['-y', spec.packageName, ...spec.args] },
  npxWindows: { command: 'cmd', args: ['/c', 'npx', '-y', spec.packageName, ...CMD_SAFE_ARGS] },
  absolute: { command: NODE, args: [SCRIPT, ...spec.args] },
};

const FORMS: [keyof typeof EXPECTED, EntryOptions][] = [
  ['npx', { form: { kind: 'npx' } }],
  ['npxWindows', { form: { kind: 'npx' }, windows: true }],
  ['absolute', { form: { kind: 'absolute', node: NODE, script: SCRIPT } }],
];

type Json = Record<string, Record<string, Record<string, unknown>>>;

/** Reads the stdio launch back out of a host's entry, checking the host's shape on the way. */
function stdioOf(host: HostId, text: string, windows: boolean): Stdio {
  if (host === 'codex') {
    const server = (parseToml(text) as Json).mcp_servers?.filesystem as unknown as Stdio;
    return server;
  }
  if (host === 'claude-code') {
    const argv = windows ? cmdArgv(text) : shArgv(text);
    const dash = argv.indexOf('--');
    // The name before --env, which would otherwise take it as one more KEY=value.
    expect(argv.slice(0, 4)).toEqual(['claude', 'mcp', 'add', 'filesystem']);
    const env: Record<string, string> = {};
    for (let i = 4; i < dash; i += 2) {
      expect(argv[i]).toBe('--env');
      const [key, ...value] = (argv[i + 1] as string).split('=');
      env[key as string] = value.join('=');
    }
    const [command, ...args] = argv.slice(dash + 1);
    return { command: command as string, args, env };
  }
  const doc = JSON.parse(text) as Json;
  expect(Object.keys(doc)).toHaveLength(1);
  if (host === 'vscode') {
    const { type, ...rest } = doc.servers?.filesystem ?? {};
    expect(type).toBe('stdio');
    return rest as unknown as Stdio;
  }
  if (host === 'zed') {
    const { source, ...rest } = doc.context_servers?.filesystem ?? {};
    expect(source).toBe('custom');
    return rest as unknown as Stdio;
  }
  return doc.mcpServers?.filesystem as unknown as Stdio;
}

describe.each(HOSTS)('%s', (host) => {
  it.each(FORMS)('the %s form starts exactly that command, arguments and environment', (name, options) => {
    const entry = hostEntry(host, name === 'npxWindows' ? cmdSpec : spec, options);
    const stdio = stdioOf(host, entry.text, options.windows ?? false);
    expect(stdio).toEqual({ ...EXPECTED[name], env: spec.env });
    expect(entry.where).not.toBe('');
    expect(entry.text.endsWith('\n')).toBe(true);
  });

  it.each(AWKWARD_ARGS.filter((arg) => !CMD_SAFE_ARGS.includes(arg)))(
    'the Windows npx form refuses %j in one sentence pointing to --absolute',
    (arg) => {
      const options: EntryOptions = { form: { kind: 'npx' }, windows: true };
      expect(() => hostEntry(host, { ...cmdSpec, args: [arg] }, options)).toThrow(CMD_NPX_REFUSAL);
      expect(hostEntry(host, { ...cmdSpec, args: [arg] }, { form: { kind: 'npx' } }).text).not.toBe('');
    },
  );

  it('leaves env out when there is none (Zed aside, whose example always has one)', () => {
    const entry = hostEntry(host, { ...spec, env: undefined }, { form: { kind: 'npx' } });
    if (host === 'zed') expect(JSON.parse(entry.text).context_servers.filesystem.env).toEqual({});
    else expect(entry.text).not.toMatch(/\benv\b/);
  });
});

describe('over HTTP', () => {
  const http: EntryOptions = { form: { kind: 'http', url: URL } };
  const entry = (host: HostId) => hostEntry(host, spec, http).text;

  it('each host that takes a URL gets it under its own key', () => {
    expect(JSON.parse(entry('vscode'))).toEqual({ servers: { filesystem: { type: 'http', url: URL } } });
    expect(JSON.parse(entry('cursor'))).toEqual({ mcpServers: { filesystem: { url: URL } } });
    expect(JSON.parse(entry('windsurf'))).toEqual({ mcpServers: { filesystem: { serverUrl: URL } } });
    expect(JSON.parse(entry('gemini'))).toEqual({ mcpServers: { filesystem: { httpUrl: URL } } });
    expect(JSON.parse(entry('zed'))).toEqual({
      context_servers: { filesystem: { source: 'custom', url: URL } },
    });
    expect(parseToml(entry('codex'))).toEqual({ mcp_servers: { filesystem: { url: URL } } });
    expect(shArgv(entry('claude-code'))).toEqual([
      'claude',
      'mcp',
      'add',
      '--transport',
      'http',
      'filesystem',
      URL,
    ]);
  });

  it('Claude Desktop, which cannot take a local URL, says so in one sentence and names what to use', () => {
    expect(() => hostEntry('claude-desktop', spec, http)).toThrow(
      /^[^\n]*use the npx entry or --absolute[^\n]*\.$/,
    );
  });
});

describe('VS Code on the command line', () => {
  it.each([false, true])(
    'code --add-mcp carries the mcp.json server plus its name (windows: %s)',
    (windows) => {
      const given = windows ? cmdSpec : spec;
      const entry = hostEntry('vscode', given, { form: { kind: 'npx' }, cli: true, windows });
      expect(entry.format).toBe('shell');
      const argv = windows ? cmdArgv(entry.text) : shArgv(entry.text);
      expect(argv.slice(0, 2)).toEqual(['code', '--add-mcp']);
      expect(argv).toHaveLength(3);
      const server = JSON.parse(hostEntry('vscode', given, { form: { kind: 'npx' }, windows }).text).servers
        .filesystem;
      expect(JSON.parse(argv[2] as string)).toEqual({ name: 'filesystem', ...server });
    },
  );

  it('refuses a Windows line Command Prompt would act on, pointing to the JSON entry', () => {
    const absolute: EntryOptions = {
      form: { kind: 'absolute', node: NODE, script: SCRIPT },
      cli: true,
      windows: true,
    };
    // Inside the JSON every string's contents sit outside what Command Prompt takes for quotes.
    expect(() => hostEntry('vscode', { ...spec, args: ['R&D'] }, absolute)).toThrow(CMD_LINE_REFUSAL);
    expect(() => hostEntry('vscode', { ...spec, args: ['(x)'] }, absolute)).toThrow(CMD_LINE_REFUSAL);
  });

  it('--cli for another host is one sentence, not a silent mcp.json', () => {
    expect(() => hostEntry('cursor', spec, { form: { kind: 'npx' }, cli: true })).toThrow(
      '--cli is for vscode only',
    );
  });
});

describe('TOML for Codex', () => {
  it('quotes a server name that is not a bare key and keeps control characters', () => {
    const odd = {
      ...spec,
      name: 'my server.v2',
      args: ['line\nbreak', 'tab\there', 'bell\u0007', 'del\u007f'],
    };
    const parsed = parseToml(hostEntry('codex', odd, { form: { kind: 'npx' } }).text) as Json;
    expect(Object.keys(parsed.mcp_servers ?? {})).toEqual(['my server.v2']);
    expect(parsed.mcp_servers?.['my server.v2']?.args).toEqual(['-y', spec.packageName, ...odd.args]);
  });
});

describe('Claude Code on Windows', () => {
  const absolute: EntryOptions = { form: { kind: 'absolute', node: NODE, script: SCRIPT }, windows: true };
  const argvOf = (args: string[]) => cmdArgv(hostEntry('claude-code', { ...spec, args }, absolute).text);

  it('quotes arguments holding & | < > ^ ( ), so Command Prompt leaves them to the program', () => {
    const args = ['C:\\Users\\me\\R&D', 'fish & chips | more > out < in ^ (x)', '(a)', ...CMD_SAFE_ARGS];
    const argv = argvOf(args);
    expect(argv.slice(argv.indexOf('--') + 1)).toEqual([NODE, SCRIPT, ...args]);
  });

  it.each([
    ['100%', /would hold %/],
    ['%PATH%', /would hold %/],
    ['wow!', /would hold !/],
    ['two\nlines', /would hold a line break/],
    // An odd `"` leaves Command Prompt's quoting open, so the & after it is seen bare.
    ['a\\"b fish & chips', /would hold &/],
  ])('refuses %j in one sentence pointing to the JSON entry', (arg, what) => {
    expect(() => argvOf([arg])).toThrow(CMD_LINE_REFUSAL);
    expect(() => argvOf([arg])).toThrow(what);
  });

  it('refuses the awkward arguments together (an odd quote in one exposes the next), while POSIX keeps them', () => {
    expect(() => argvOf(AWKWARD_ARGS)).toThrow(CMD_LINE_REFUSAL);
    const posix = shArgv(hostEntry('claude-code', spec, { ...absolute, windows: false }).text);
    expect(posix.slice(posix.indexOf('--') + 1)).toEqual([NODE, SCRIPT, ...AWKWARD_ARGS]);
  });

  it('refuses an env value holding % rather than print a line that expands it', () => {
    expect(() =>
      hostEntry(
        'claude-code',
        { ...cmdSpec, env: { TOKEN: '%SECRET%' } },
        { form: { kind: 'npx' }, windows: true },
      ),
    ).toThrow(CMD_LINE_REFUSAL);
  });
});

describe('POSIX quoting', () => {
  it('quotes a leading =, which zsh would expand to the path of a command', () => {
    const argv = ['claude', 'mcp', 'add', 'x', '--', 'node', '=ls', 'a=b', '--k=v'];
    expect(commandLine(argv)).toBe("claude mcp add x -- node '=ls' a=b --k=v");
    expect(shArgv(commandLine(argv))).toEqual(argv);
  });
});
