import { describe, expect, it } from 'vitest';

// The public surface of the built package, entry by entry, resolved through its own exports map.
// Any change to it shows up here in review.
const ENTRIES = [
  'completion',
  'elicitation',
  'errors',
  'install',
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

  // testing (the test client) and install (host entries, for the config command and build tools)
  // are reachable only by their own paths, so a server's start-up never loads them.
  const OWN_PATH_ONLY: readonly string[] = ['testing', 'install'];

  it('the root barrel re-exports every entry but testing and install', async () => {
    const root = (await import('@mcpkit/core')) as Record<string, unknown>;
    for (const entry of OWN_PATH_ONLY) {
      const mod = (await import(`@mcpkit/core/${entry}`)) as Record<string, unknown>;
      for (const name of Object.keys(mod)) expect(root).not.toHaveProperty(name);
    }
    for (const entry of ENTRIES.filter((e) => !OWN_PATH_ONLY.includes(e))) {
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
