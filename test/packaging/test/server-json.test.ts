/**
 * Every server listed for the MCP Registry gets a `server.json` from `mcpkit-bundle release` that
 * the registry's published schema accepts (the pinned copy in fixtures/registry), under the
 * name npm's package.json claims (`mcpName`, which the registry checks against the package), with
 * the bundle's real SHA-256 and a download URL in the repository's releases.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { mcpNameOf, released, releaseOf } from '../src/releases.js';
import { readManifest } from '../src/workspaces.js';

const scratch = inject('scratch');
const SCHEMA = JSON.parse(
  readFileSync(new URL('../fixtures/registry/server.schema.json', import.meta.url), 'utf8'),
) as { $id: string; $schema: string };

// ajv-formats is CommonJS; under ESM its function is the default export's default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  repository: { url: string; source: string; subfolder?: string };
  packages: {
    registryType: string;
    identifier: string;
    version?: string;
    fileSha256?: string;
    environmentVariables?: { name: string; isSecret?: boolean }[];
  }[];
}

/** The schema is draft-07 (its `$schema` says so), which is Ajv's default draft. */
function validator() {
  expect(SCHEMA.$schema).toBe('http://json-schema.org/draft-07/schema#');
  // Not strict: the registry's schema carries OpenAPI annotations (example, discriminator).
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(SCHEMA);
}

it('finds the servers listed for the registry', () => {
  expect(released.length).toBeGreaterThan(0);
});

it('the pinned schema refuses what the registry refuses', () => {
  const validate = validator();
  const base = { name: 'io.github.example/x', description: 'An example.', version: '1.0.0' };
  expect(validate(base)).toBe(true);
  expect(validate({ ...base, description: 'x'.repeat(101) })).toBe(false);
  expect(validate({ ...base, name: 'no-slash' })).toBe(false);
  expect(
    validate({
      ...base,
      packages: [
        {
          registryType: 'mcpb',
          identifier: 'https://x/y.mcpb',
          fileSha256: 'ABC',
          transport: { type: 'stdio' },
        },
      ],
    }),
  ).toBe(false);
});

describe.each(released)('$name', (server) => {
  const pkg = readManifest(server.dir);
  let serverJson: ServerJson;
  let bundle: string;

  beforeAll(async () => {
    const release = releaseOf(scratch, server);
    serverJson = JSON.parse(readFileSync(join(release.out, 'server.json'), 'utf8'));
    bundle = release.bundle;
  });

  it('validates against the pinned registry schema', () => {
    const validate = validator();
    const ok = validate(serverJson);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
    expect(serverJson.$schema).toBe(SCHEMA.$id);
  });

  it("is named by package.json's mcpName, at its version", () => {
    expect(serverJson.name).toBe(mcpNameOf(server.dir));
    expect(serverJson.version).toBe(pkg.version);
    expect(serverJson.description).toBe(pkg.description);
    expect(serverJson.repository.subfolder).toBe(server.path);
  });

  it('lists the npm package and the bundle, whose SHA-256 is the file’s', () => {
    const npm = serverJson.packages.find((p) => p.registryType === 'npm');
    expect(npm).toMatchObject({ identifier: pkg.name, version: pkg.version });
    const secrets = (npm?.environmentVariables ?? []).filter((v) => v.isSecret).map((v) => v.name);
    expect(secrets).toEqual(expect.arrayContaining(['MCPKIT_TOKEN', 'MCPKIT_STATE_KEY']));
    const mcpb = serverJson.packages.find((p) => p.registryType === 'mcpb');
    expect(mcpb?.fileSha256).toBe(createHash('sha256').update(readFileSync(bundle)).digest('hex'));
    expect(mcpb?.identifier).toMatch(
      new RegExp(`^${serverJson.repository.url}/releases/download/[^/]+/${bundle.split(/[\\/]/).pop()}$`),
    );
  });
});
