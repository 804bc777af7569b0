import { describe, expect, it } from 'vitest';
import { vendoredIn } from '../src/vendored.js';

describe('vendoredIn', () => {
  it('names the packages a pre-bundled file carries, with the version pnpm stored them under', () => {
    const code = [
      '//#region ../../node_modules/.pnpm/ajv@8.18.0/node_modules/ajv/dist/core.js',
      'var a = 1;',
      '//#endregion',
      '//#region ../../node_modules/.pnpm/ajv-formats@3.0.1_ajv@8.18.0/node_modules/ajv-formats/dist/index.js',
      '//#region ../../node_modules/.pnpm/@cfworker+json-schema@4.1.1/node_modules/@cfworker/json-schema/dist/esm/index.js',
      '//#region ../../node_modules/.pnpm/ajv@8.18.0/node_modules/ajv/dist/compile/index.js',
      '//#region node_modules/plain-dep/lib/x.js',
      '//#region src/server/mcp.ts',
      '//#region ../../node_modules/.pnpm/owner-pkg@1.0.0/node_modules/owner-pkg/dist/y.js',
    ].join('\n');
    expect(vendoredIn(code, 'owner-pkg')).toEqual([
      { name: 'ajv', version: '8.18.0' },
      { name: 'ajv-formats', version: '3.0.1' },
      { name: '@cfworker/json-schema', version: '4.1.1' },
      { name: 'plain-dep' },
    ]);
  });

  it('ignores region markers that are not at the start of a line', () => {
    expect(vendoredIn('const s = "//#region node_modules/x/y.js";', 'o')).toEqual([]);
  });
});
