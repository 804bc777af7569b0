import { describe, expect, it } from 'vitest';

// The public surface of the built package, entry by entry, resolved through its own exports map.
// Any change to it shows up here in review.
const ENTRIES = [
  'completion',
  'elicitation',
  'errors',
  'limits',
  'logging',
  'mrtr',
  'pagination',
  'progress',
  'roots',
  'runner',
  'sampling',
  'server',
  'subscriptions',
  'tasks',
  'testing',
] as const;

describe('public exports', () => {
  it.each(ENTRIES)('@mcpkit/core/%s', async (entry) => {
    const mod = (await import(`@mcpkit/core/${entry}`)) as Record<string, unknown>;
    expect(Object.keys(mod).sort()).toMatchSnapshot();
  });

  it('the root barrel re-exports every entry but testing', async () => {
    const root = (await import('@mcpkit/core')) as Record<string, unknown>;
    const testing = (await import('@mcpkit/core/testing')) as Record<string, unknown>;
    for (const name of Object.keys(testing)) expect(root).not.toHaveProperty(name);
    for (const entry of ENTRIES.filter((e) => e !== 'testing')) {
      const mod = (await import(`@mcpkit/core/${entry}`)) as Record<string, unknown>;
      for (const name of Object.keys(mod)) expect(root[name], `${entry}.${name}`).toBe(mod[name]);
    }
  });

  it('every entry is in package.json exports', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(pkg.exports).sort()).toEqual(
      ['.', './package.json', ...ENTRIES.map((e) => `./${e}`)].sort(),
    );
  });
});
