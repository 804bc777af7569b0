import { describe, expect, it } from 'vitest';
import {
  cursorInstallLink,
  HOSTS,
  hostEntry,
  installMarkdown,
  type LaunchSpec,
  npxLaunch,
  vscodeInstallLink,
  vscodeWebInstallLink,
} from '../src/install/index.js';
import { AWKWARD_ARGS, CMD_NPX_REFUSAL, CMD_SAFE_ARGS } from './install-kit.js';

const spec: LaunchSpec = {
  name: 'filesystem',
  packageName: '@mcpkit/server-filesystem',
  bin: 'mcpkit-filesystem',
  args: [...AWKWARD_ARGS, 'ünïcödé (x)'],
};
const launch = npxLaunch(spec);
const mcpJson = (windows = false) =>
  JSON.parse(hostEntry('vscode', spec, { form: { kind: 'npx' }, windows }).text).servers.filesystem;

describe('install links', () => {
  it('VS Code: vscode:mcp/install? and the URL-encoded --add-mcp object, which decodes to the entry', () => {
    for (const [insiders, scheme] of [
      [false, 'vscode:'],
      [true, 'vscode-insiders:'],
    ] as const) {
      const link = vscodeInstallLink(spec.name, launch, insiders);
      const url = new URL(link);
      expect(url.protocol).toBe(scheme);
      expect(url.pathname).toBe('mcp/install');
      expect(JSON.parse(decodeURIComponent(link.slice(link.indexOf('?') + 1)))).toEqual({
        name: 'filesystem',
        ...mcpJson(),
      });
    }
  });

  it('VS Code on the web: the vscode.dev redirect with name and the JSON config, which decode to the entry', () => {
    for (const insiders of [false, true]) {
      const url = new URL(vscodeWebInstallLink(spec.name, launch, insiders));
      expect(url.protocol).toBe('https:');
      expect(url.pathname).toBe('/redirect/mcp/install');
      expect(url.searchParams.get('name')).toBe('filesystem');
      expect(JSON.parse(url.searchParams.get('config') ?? '')).toEqual(mcpJson());
      expect(url.searchParams.get('quality')).toBe(insiders ? 'insiders' : null);
    }
  });

  it('Cursor: name and base64 config, which decode to the mcp.json server', () => {
    const link = cursorInstallLink(spec.name, launch);
    expect(link.startsWith('cursor://anysphere.cursor-deeplink/mcp/install?')).toBe(true);
    const query = new URL(link).searchParams;
    expect(query.get('name')).toBe('filesystem');
    const config = JSON.parse(Buffer.from(query.get('config') ?? '', 'base64').toString('utf8'));
    const entry = JSON.parse(hostEntry('cursor', spec, { form: { kind: 'npx' } }).text);
    expect(config).toEqual(entry.mcpServers.filesystem);
  });
});

/** The fenced blocks of a section, in order. */
function blocks(section: string): string[] {
  return [...section.matchAll(/^(`{3,})[a-z]*\n([\s\S]*?)^\1$/gm)].map((m) => m[2] as string);
}

describe('installMarkdown', () => {
  // A README shows the Windows npx form and the Windows `code --add-mcp` line, so nothing in it may
  // be what Command Prompt acts on.
  const spec: LaunchSpec = {
    name: 'filesystem',
    packageName: '@mcpkit/server-filesystem',
    bin: 'mcpkit-filesystem',
    args: [...CMD_SAFE_ARGS, 'ünïcödé'],
    env: { NOTE: 'ünïcödé $HOME' },
  };
  const launch = npxLaunch(spec);
  const mcpJson = () =>
    JSON.parse(hostEntry('vscode', spec, { form: { kind: 'npx' } }).text).servers.filesystem;
  const markdown = installMarkdown(spec);
  const sections = markdown.split(/^### /m).slice(1);

  it('has one level-3 section per host, in order, and no other heading', () => {
    expect(sections).toHaveLength(HOSTS.length);
    expect(markdown.match(/^#+ /gm)?.every((h) => h === '### ')).toBe(true);
  });

  it('shows exactly the entries the config command prints, npx then Windows', () => {
    HOSTS.forEach((host, i) => {
      const section = sections[i] as string;
      const shown = blocks(section);
      const npx = hostEntry(host, spec, { form: { kind: 'npx' } }).text;
      const windows = hostEntry(host, spec, { form: { kind: 'npx' }, windows: true }).text;
      expect(shown.slice(0, 2), host).toEqual([npx, windows]);
      expect(section).toContain('<summary>Windows');
    });
  });

  it('adds the code --add-mcp lines to VS Code', () => {
    const vscode = sections[HOSTS.indexOf('vscode')] as string;
    const cli = hostEntry('vscode', spec, { form: { kind: 'npx' }, cli: true }).text;
    expect(blocks(vscode)[2]).toBe(cli);
  });

  it('links VS Code, VS Code Insiders and Cursor, and each link decodes to the entry shown', () => {
    const links = [...markdown.matchAll(/\[Install in ([^\]]+)\]\(([^)\s]+)\)/g)].map((m) => [m[1], m[2]]);
    expect(links.map(([label]) => label)).toEqual(['VS Code', 'VS Code Insiders', 'Cursor']);
    const [stable, , cursor] = links.map(([, url]) => url as string) as [string, string, string];
    const offered = new URL(stable).searchParams;
    expect(offered.get('name')).toBe('filesystem');
    expect(JSON.parse(offered.get('config') ?? '')).toEqual(mcpJson());
    // Base64 holds no parentheses, so the Cursor link is shown as generated.
    expect(cursor).toBe(cursorInstallLink(spec.name, launch));
  });

  it('the README offers VS Code through the https redirect, which a GitHub page keeps clickable', () => {
    const vscode = markdown.split(/^### /m)[HOSTS.indexOf('vscode') + 1] as string;
    expect(vscode).toContain('](https://insiders.vscode.dev/redirect/mcp/install?name=filesystem&config=');
    expect(vscode).not.toContain('](vscode:');
  });

  it('refuses an argument the Windows form cannot carry rather than show a wrong entry', () => {
    expect(() => installMarkdown({ ...spec, args: ['R&D'] })).toThrow(CMD_NPX_REFUSAL);
    expect(() => installMarkdown({ ...spec, env: { NOTE: '(x)' } })).toThrow(/use the JSON entry instead/);
  });

  it('fences an argument holding backticks so it cannot end its block early', () => {
    const ticks = installMarkdown({ ...spec, args: ['```js', 'x'] });
    expect(blocks(ticks.split(/^### /m)[1] as string)[0]).toBe(
      hostEntry('claude-desktop', { ...spec, args: ['```js', 'x'] }, { form: { kind: 'npx' } }).text,
    );
  });
});
