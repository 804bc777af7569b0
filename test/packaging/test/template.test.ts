/**
 * Every server folder, forked out of the monorepo as a template: it installs against the
 * `@mcpkit/core` (and `@mcpkit/bundle`) tarballs, builds with its own `npm run build`, and its bin
 * runs and serves.
 */
import { join } from 'node:path';
import { connect } from '@mcpkit/core/testing';
import { describe, expect, inject, it } from 'vitest';
import { NPM_INSTALL } from '../src/install.js';
import { run, runOk, userPath } from '../src/run.js';
import { FORK_VERSION, forkServer } from '../src/template.js';
import { binsOf, serverFolders } from '../src/workspaces.js';

const packed = inject('packed');
const scratch = inject('scratch');

describe.each(serverFolders())('$path', (server) => {
  it('installs on the core tarball, builds standalone, and its bin runs', { timeout: 120_000 }, async () => {
    if (!packed.some((p) => p.name === '@mcpkit/core')) throw new Error('@mcpkit/core was not packed');
    const dest = join(scratch, 'forks', server.path.replace('/', '-'));
    const fork = forkServer(server.dir, dest, new Map(packed.map((p) => [p.name, p.tarball])));

    await runOk('npm', NPM_INSTALL, { cwd: dest, timeoutMs: 180_000 });
    // The fork's own build script: what someone who copied the folder runs.
    const build = await run('npm', ['run', 'build'], { cwd: dest, timeoutMs: 90_000 });
    expect(build.code, `${build.stdout}${build.stderr}`).toBe(0);

    const [script] = Object.values(binsOf(fork));
    if (script === undefined) throw new Error(`${server.path} declares no bin`);
    const bin = join(dest, script);
    const version = await run('node', [bin, '--version'], { cwd: dest });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(FORK_VERSION);

    // And it serves: a stdio session on the fork's own build.
    const session = await connect(undefined, {
      era: 'legacy',
      transport: { stdio: { command: 'node', args: [bin, dest], env: { PATH: userPath() } } },
    });
    try {
      expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });
});
