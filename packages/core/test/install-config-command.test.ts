import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { npxCacheAdvice } from '../src/install/advice.js';
import { type ConfigIo, configCommand, HOSTS, shortName } from '../src/install/index.js';

// A package installed the way npm links it: node_modules/<name> a symlink to the real folder.
const root = mkdtempSync(join(tmpdir(), 'mcpkit-config-'));
const real = join(root, 'store', 'server-demo');
mkdirSync(join(real, 'dist'), { recursive: true });
writeFileSync(
  join(real, 'package.json'),
  JSON.stringify({ name: '@mcpkit/server-demo', version: '1.2.3', bin: { 'mcpkit-demo': './dist/bin.js' } }),
);
writeFileSync(join(real, 'dist', 'bin.js'), '');
mkdirSync(join(root, 'node_modules', '@mcpkit'), { recursive: true });
const linked = join(root, 'node_modules', '@mcpkit', 'server-demo');
symlinkSync(real, linked, 'dir');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bin = { bin: 'mcpkit-demo', packageJson: pathToFileURL(join(linked, 'package.json')) };

function run(argv: string[], platform: NodeJS.Platform = 'linux') {
  let out = '';
  let err = '';
  const io: ConfigIo = {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    platform,
    execPath: '/usr/local/bin/node',
    cwd: root,
  };
  const code = configCommand(bin, argv, io);
  return { code, out, err };
}

const argsOf = (out: string) => JSON.parse(out).mcpServers.demo.args as string[];

describe('config --help', () => {
  it('lists every host id and every form on stdout', () => {
    const { code, out, err } = run(['--help']);
    expect(code).toBe(0);
    expect(err).toBe('');
    for (const host of HOSTS) expect(out).toMatch(new RegExp(`^  ${host} `, 'm'));
    for (const form of ['npx -y @mcpkit/server-demo', '--absolute', '--http <url>', '--windows']) {
      expect(out).toContain(form);
    }
  });
});

describe('config <host>', () => {
  it('prints only the entry on stdout and one line on stderr saying where it goes', () => {
    const { code, out, err } = run(['cursor']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      mcpServers: { demo: { command: 'npx', args: ['-y', '@mcpkit/server-demo'] } },
    });
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toContain('.cursor/mcp.json');
  });

  it('passes server arguments exactly as given: relative, flag-like, and after --', () => {
    const { out } = run(['cursor', './data', '--read-only', '--', '--absolute', '~/x']);
    expect(argsOf(out)).toEqual(['-y', '@mcpkit/server-demo', './data', '--read-only', '--absolute', '~/x']);
  });

  it('takes its own options anywhere before --', () => {
    const { out } = run(['cursor', '/a', '--windows', '/b']);
    expect(JSON.parse(out).mcpServers.demo).toEqual({
      command: 'cmd',
      args: ['/c', 'npx', '-y', '@mcpkit/server-demo', '/a', '/b'],
    });
  });

  it('gives the Windows form by default on Windows', () => {
    expect(JSON.parse(run(['gemini', '/a'], 'win32').out).mcpServers.demo.command).toBe('cmd');
  });

  it('--absolute runs this Node and the installed bin by its real path', () => {
    const { code, out } = run(['codex', '--absolute', '/data']);
    expect(code).toBe(0);
    expect(parseToml(out)).toEqual({
      mcp_servers: {
        demo: { command: '/usr/local/bin/node', args: [realpathSync(join(real, 'dist', 'bin.js')), '/data'] },
      },
    });
  });

  it('--http points the host at the URL', () => {
    const { code, out } = run(['windsurf', '--http', 'http://127.0.0.1:4000/mcp']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ mcpServers: { demo: { serverUrl: 'http://127.0.0.1:4000/mcp' } } });
  });

  it('--http gives the host the parsed URL, with no line break a terminal would act on', () => {
    const { code, out } = run(['claude-code', '--http', 'http://127.0.0.1:4000/m\ncp']);
    expect(code).toBe(0);
    expect(out).toBe('claude mcp add --transport http demo http://127.0.0.1:4000/mcp\n');
  });

  it('--link prints the install link for VS Code and Cursor', () => {
    expect(run(['vscode', '--link', '/a']).out).toMatch(/^vscode:mcp\/install\?%7B.*\n$/);
    expect(run(['cursor', '--link']).out).toMatch(
      /^cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?name=demo&config=/,
    );
  });
});

describe('advice beside the entry', () => {
  it('names a server argument that is an existing relative path, and still prints the entry as given', () => {
    const { code, out, err } = run(['cursor', 'store', 'not-there', '--read-only', '~/x']);
    expect(code).toBe(0);
    expect(argsOf(out)).toEqual(['-y', '@mcpkit/server-demo', 'store', 'not-there', '--read-only', '~/x']);
    const notes = err.split('\n').filter((line) => line.startsWith('Note: '));
    expect(notes).toEqual([
      'Note: "store" is a relative path, and a host starts the server in a folder of its own: give it as an absolute path.',
    ]);
  });

  it("warns when the absolute form would point into npx's cache", () => {
    const cached = join('/home/u/.npm/_npx/1a2b/node_modules/@mcpkit/server-demo/dist/bin.js');
    expect(npxCacheAdvice(cached, '@mcpkit/server-demo')[0]).toMatch(/npm install -g @mcpkit\/server-demo/);
    expect(npxCacheAdvice(join(real, 'dist', 'bin.js'), '@mcpkit/server-demo')).toEqual([]);
  });
});

describe('a command line that cannot work', () => {
  it.each([
    [
      ['nope'],
      /"nope" is not a host this command knows; use one of claude-desktop, claude-code, vscode, cursor, windsurf, codex, gemini, zed\./,
    ],
    [[], /Name a host: one of claude-desktop,/],
    [['cursor', '--http', 'localhost:3000'], /--http needs the http:\/\/ or https:\/\/ URL/],
    [['cursor', '--http'], /--http needs the URL of the running server\./],
    [['cursor', '--http', 'http://127.0.0.1:1/mcp', '/data'], /An HTTP entry takes no server arguments/],
    [['cursor', '--absolute', '--http', 'http://127.0.0.1:1/mcp'], /Choose one of --absolute and --http\./],
    [['claude-desktop', '--http', 'http://127.0.0.1:1/mcp'], /use the npx entry or --absolute/],
    [['codex', '--link'], /--link is for vscode and cursor/],
    [['zed', '--cli'], /--cli is for vscode only/],
    [
      ['cursor', '--windows', 'C:\\Users\\me\\R&D'],
      /^mcpkit-demo: "C:\\Users\\me\\R&D" holds &, which Command Prompt would act on in the cmd \/c npx form; use --absolute, which starts Node directly\.$/,
    ],
    [['claude-code', '--absolute', '--windows', '100%'], /would hold %, [^\n]*use the JSON entry instead/],
  ])('%j is one sentence on stderr, nothing on stdout, exit 2', (argv, message) => {
    const { code, out, err } = run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    const [sentence, hint] = err.trimEnd().split('\n');
    expect(sentence).toMatch(message);
    expect(sentence).toMatch(/^mcpkit-demo: [^\n]+\.$/);
    expect(hint).toBe('Run "mcpkit-demo config --help" for usage.');
    expect(err).not.toContain(root);
  });
});

describe('shortName', () => {
  it('drops the scope and the server prefix or suffix', () => {
    expect(shortName('@mcpkit/server-filesystem')).toBe('filesystem');
    expect(shortName('@mcpkit/example-server')).toBe('example');
    expect(shortName('plain')).toBe('plain');
  });
});
