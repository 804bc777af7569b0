/**
 * The bundle manifest from a server's description: how settings become `user_config` and the
 * command a host runs (checked with mcpb's own substitution, the code hosts follow), and the
 * settings a host could not pass, refused with one sentence.
 */
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';
import { describe, expect, it } from 'vitest';
import type { SettingDef } from '../src/release/description.js';
import { ReleaseError } from '../src/release/errors.js';
import { ALL_PLATFORMS, buildManifest } from '../src/release/manifest.js';
import { checkManifest } from '../src/release/pack.js';
import { fixture } from './release-fixture.js';

function withSettings(settings: Record<string, SettingDef>) {
  const base = fixture();
  return { ...base, cli: { ...base.cli, settings } };
}

const options = { platforms: ALL_PLATFORMS, icon: true };

describe('buildManifest', () => {
  const manifest = buildManifest(fixture(), options);

  it('is a valid manifest of version 0.4, the version its fields were written for', () => {
    expect(manifest.manifest_version).toBe('0.4');
    expect(() => checkManifest(manifest)).not.toThrow();
    expect(manifest).toMatchObject({
      name: 'acme-notes',
      display_name: 'Notes (acme)',
      version: '1.2.3',
      author: { name: 'acme', url: 'https://github.com/acme' },
      repository: { type: 'git', url: 'https://github.com/acme/tools' },
      support: 'https://github.com/acme/tools/issues',
      icon: 'icon.png',
      compatibility: { platforms: ['darwin', 'linux', 'win32'], runtimes: { node: '>=20.19' } },
    });
  });

  it('runs the bundled bin on node, folders after --, flags by their variables', () => {
    expect(manifest.server).toEqual({
      type: 'node',
      entry_point: 'dist/bin.js',
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/dist/bin.js`, '--', `\${user_config.folders}`],
        env: {
          MCPKIT_READ_ONLY: `\${user_config.read_only}`,
          MCPKIT_LABEL: `\${user_config.label}`,
          MCPKIT_LIMIT: `\${user_config.limit}`,
        },
      },
    });
  });

  it('gives every optional setting a default, so an untouched field is still substituted', () => {
    expect(manifest.user_config).toEqual({
      folders: {
        type: 'directory',
        title: 'Folders',
        description: 'Notes folders.',
        required: true,
        multiple: true,
      },
      read_only: {
        type: 'boolean',
        title: 'Read-only',
        description: 'Change nothing.',
        required: false,
        default: false,
      },
      label: { type: 'string', title: 'Label', description: 'Shown on notes.', required: false, default: '' },
      limit: {
        type: 'number',
        title: 'Page size',
        description: 'Notes per page.',
        required: false,
        default: 20,
        min: 1,
        max: 100,
      },
    });
  });

  it('lists the tools, and each prompt with its arguments as placeholders', () => {
    expect(manifest.tools).toEqual([
      { name: 'read_note', description: 'Reads one note.' },
      { name: 'write_note', description: 'Writes one note.' },
    ]);
    expect(manifest.prompts).toEqual([
      {
        name: 'summarize',
        description: 'Summarizes a note.',
        arguments: ['name', 'style'],
        text: `Summarize. Summarizes a note.\nname: \${arguments.name}\nstyle: \${arguments.style}`,
      },
    ]);
  });

  it('becomes the command a host runs: folders one argument each, a switch as true, a blank text as empty', async () => {
    const config = await getMcpConfigForManifest({
      manifest: manifest as never,
      extensionPath: '/apps/notes',
      systemDirs: {},
      userConfig: { folders: ['/home/me/a', '/home/me/-b'], read_only: true },
      pathSeparator: '/',
    });
    expect(config).toEqual({
      command: 'node',
      args: ['/apps/notes/dist/bin.js', '--', '/home/me/a', '/home/me/-b'],
      env: { MCPKIT_READ_ONLY: 'true', MCPKIT_LABEL: '', MCPKIT_LIMIT: '20' },
    });
  });

  it('names one platform and a Node major when told a native binary is inside', () => {
    const native = buildManifest(fixture(), { platforms: ['linux'], node: '>=20.19 <21', icon: false });
    expect(native.compatibility).toEqual({ platforms: ['linux'], runtimes: { node: '>=20.19 <21' } });
    expect(native.icon).toBeUndefined();
  });
});

describe('settings a host could not pass are refused', () => {
  const folder = (more: Partial<SettingDef>): SettingDef => ({
    title: 'Folder',
    description: 'A folder.',
    type: 'directory',
    required: true,
    fills: 'positionals',
    ...more,
  });
  const cases: [string, Record<string, SettingDef>, RegExp][] = [
    ['an optional positional', { f: folder({ required: false }) }, /must be required/],
    ['two positional settings', { f: folder({}), g: folder({}) }, /Only one setting may fill the positional/],
    [
      'several values in a variable',
      { f: folder({ fills: { flag: 'label' }, multiple: true }) },
      /comma-separated/,
    ],
    [
      'a flag the bin does not have',
      { f: folder({ type: 'string', fills: { flag: 'colour' } }) },
      /does not have/,
    ],
    [
      'a switch for a value flag',
      { f: folder({ type: 'boolean', fills: { flag: 'label' } }) },
      /is a boolean but --label is a string flag/,
    ],
    ['a name a placeholder cannot hold', { 'Bad-Name': folder({}) }, /lower-case letters/],
    [
      'several values of a text',
      { f: folder({ type: 'string', multiple: true }) },
      /only directory and file settings/,
    ],
    [
      'an optional number without default',
      { f: folder({ type: 'number', required: false, fills: { flag: 'limit' } }) },
      /give it one/,
    ],
  ];
  it.each(cases)('%s', (_name, settings, message) => {
    const attempt = () => buildManifest(withSettings(settings), options);
    expect(attempt).toThrow(ReleaseError);
    expect(attempt).toThrow(message);
  });

  it('a cli bin the package does not have', () => {
    const base = fixture();
    expect(() => buildManifest({ ...base, cli: { ...base.cli, bin: 'other' } }, options)).toThrow(
      'package.json has no bin named other',
    );
  });
});
