/**
 * Every server folder, forked out of the monorepo as a template: it installs against the
 * `@mcpkit/core` (and `@mcpkit/bundle`) tarballs, builds with its own `npm run build`, and its bin
 * reports the fork's own version, offers no testing switches, and serves its test world in both eras.
 */
import { join } from 'node:path';
import { discoverServers, loadWorld } from '@mcpkit/core/testing';
import { describe, expect, inject, it } from 'vitest';
import { NPM_INSTALL } from '../src/install.js';
import { run, runOk } from '../src/run.js';
import { FORK_VERSION, forkServer } from '../src/template.js';
import { binsOf, ROOT } from '../src/workspaces.js';
import { expectServesWorld } from '../src/world-session.js';

const packed = inject('packed');
const scratch = inject('scratch');

// A fork with a native addon (better-sqlite3) may compile it from source during its install when no
// prebuilt binary can be downloaded: about a minute on an idle 2-core machine, several under load.
const INSTALL_MS = 360_000;

describe.each(discoverServers(ROOT))('$path', (server) => {
  it('installs on the core tarball, builds standalone, and its bin runs', {
    timeout: INSTALL_MS + 120_000,
  }, async () => {
    if (!packed.some((p) => p.name === '@mcpkit/core')) throw new Error('@mcpkit/core was not packed');
    const dest = join(scratch, 'forks', server.path.replace('/', '-'));
    const fork = forkServer(server.dir, dest, new Map(packed.map((p) => [p.name, p.tarball])));

    await runOk('npm', NPM_INSTALL, { cwd: dest, timeoutMs: INSTALL_MS });
    // The fork's own build script: what someone who copied the folder runs.
    const build = await run('npm', ['run', 'build'], { cwd: dest, timeoutMs: 90_000 });
    expect(build.code, `${build.stdout}${build.stderr}`).toBe(0);

    const [script] = Object.values(binsOf(fork));
    if (script === undefined) throw new Error(`${server.path} declares no bin`);
    const bin = join(dest, script);
    const version = await run('node', [bin, '--version'], { cwd: dest });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(FORK_VERSION);
    // A template's command line is the product's: no switch that exists only for tests.
    const help = await run('node', [bin, '--help'], { cwd: dest });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).not.toMatch(/conformance|fixture|testing/i);

    // And it serves its test world in both eras, on the fork's own build.
    await expectServesWorld(await loadWorld(server), {
      dir: join(scratch, 'worlds', server.path.replace('/', '-')),
      launch: { command: 'node', args: [bin] },
      eras: ['legacy', 'modern'],
      check: (session) => {
        expect(session.client.getServerVersion()?.version).toBe(FORK_VERSION);
      },
    });
  });
});
