/**
 * server.json from the same description: the registry fields, the npm package's arguments and
 * variables, the bundle's download URL and hash, and the refusals the registry would make.
 */
import { describe, expect, it } from 'vitest';
import { ReleaseError } from '../src/release/errors.js';
import { releaseAssetUrl, releaseTag, repositoryOf } from '../src/release/repository.js';
import { buildServerJson, SERVER_SCHEMA_URL } from '../src/release/server-json.js';
import { fixture } from './release-fixture.js';

const bundle = { file: 'acme-notes-1.2.3.mcpb', sha256: 'a'.repeat(64) };

describe('buildServerJson', () => {
  const json = buildServerJson(fixture(), bundle);

  it('names the server by mcpName, with the repository folder and website', () => {
    expect(json).toMatchObject({
      $schema: SERVER_SCHEMA_URL,
      name: 'io.github.acme/notes',
      title: 'Notes (acme)',
      description: 'Notes for agents.',
      version: '1.2.3',
      repository: { url: 'https://github.com/acme/tools', source: 'github', subfolder: 'servers/notes' },
      websiteUrl: 'https://github.com/acme/tools/tree/main/servers/notes#readme',
    });
  });

  it('gives the npm package its positional slot and value flags, and every flag a variable', () => {
    const [npm] = json.packages;
    expect(npm).toMatchObject({ registryType: 'npm', identifier: '@acme/server-notes', version: '1.2.3' });
    expect(npm?.packageArguments).toEqual([
      {
        type: 'positional',
        valueHint: 'dir',
        description: 'A notes folder.',
        isRequired: true,
        isRepeated: true,
        format: 'filepath',
      },
      {
        type: 'named',
        name: '--label',
        description: 'The label shown on notes.',
        isRequired: false,
        isRepeated: false,
        format: 'string',
      },
      {
        type: 'named',
        name: '--limit',
        description: 'Notes per page.',
        isRequired: false,
        isRepeated: false,
        format: 'number',
      },
      {
        type: 'named',
        name: '--tags',
        description: 'A tag to show (repeatable).',
        isRequired: false,
        isRepeated: true,
        format: 'string',
      },
    ]);
    const vars = npm?.environmentVariables ?? [];
    expect(vars.map((v) => [v.name, v.format, v.isSecret === true])).toEqual([
      ['MCPKIT_READ_ONLY', 'boolean', false],
      ['MCPKIT_LABEL', 'string', false],
      ['MCPKIT_LIMIT', 'number', false],
      ['MCPKIT_TAGS', 'string', false],
      ['MCPKIT_TOKEN', 'string', true],
      ['MCPKIT_STATE_KEY', 'string', true],
    ]);
    expect(vars.find((v) => v.name === 'MCPKIT_TAGS')?.description).toContain('comma-separated');
  });

  it('points the mcpb package at the GitHub release asset, with its hash', () => {
    expect(json.packages[1]).toEqual({
      registryType: 'mcpb',
      identifier: 'https://github.com/acme/tools/releases/download/acme-notes-v1.2.3/acme-notes-1.2.3.mcpb',
      version: '1.2.3',
      fileSha256: bundle.sha256,
      transport: { type: 'stdio' },
    });
  });
});

describe('refusals', () => {
  const base = fixture();
  const cases: [string, Parameters<typeof buildServerJson>[0], string][] = [
    [
      'no mcpName',
      { ...base, pkg: { ...base.pkg, mcpName: undefined } as never },
      'package.json has no mcpName',
    ],
    [
      'a description over 100 characters',
      { ...base, pkg: { ...base.pkg, description: 'x'.repeat(101) } },
      "package.json's description is 101 characters; the MCP Registry takes at most 100.",
    ],
    [
      "another owner's GitHub namespace",
      { ...base, pkg: { ...base.pkg, mcpName: 'io.github.someone/notes' } },
      'claims the GitHub namespace of someone',
    ],
    [
      'a repository off GitHub',
      {
        ...base,
        pkg: { ...base.pkg, mcpName: 'com.acme/notes', repository: 'https://gitlab.com/acme/tools.git' },
      },
      'made for GitHub releases',
    ],
  ];
  it.each(cases)('%s', (_name, desc, message) => {
    const attempt = () => buildServerJson(desc, bundle);
    expect(attempt).toThrow(ReleaseError);
    expect(attempt).toThrow(message);
  });
});

describe('repositoryOf', () => {
  it.each([
    'git+https://github.com/acme/tools.git',
    'https://github.com/acme/tools',
    'github:acme/tools',
    'acme/tools',
    'git@github.com:acme/tools.git',
  ])('reads %s', (url) => {
    expect(repositoryOf({ name: 'x', version: '1.0.0', repository: url })).toEqual({
      url: 'https://github.com/acme/tools',
      source: 'github',
      owner: 'acme',
      name: 'tools',
    });
  });

  it('refuses a package without one, in one sentence', () => {
    expect(() => repositoryOf({ name: 'x', version: '1.0.0' })).toThrow(
      /^package\.json has no repository URL/,
    );
  });

  it('escapes the tag and file in the download URL', () => {
    const repo = repositoryOf({ name: 'x', version: '1.0.0', repository: 'github:acme/tools' });
    expect(releaseAssetUrl(repo, releaseTag('a b', '1.0.0'), 'a b.mcpb')).toBe(
      'https://github.com/acme/tools/releases/download/a%20b-v1.0.0/a%20b.mcpb',
    );
  });
});
