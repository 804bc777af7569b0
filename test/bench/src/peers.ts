/**
 * Peers installed on first use, into the bench's output folder, instead of being dependencies of
 * the bench. A peer with a native addon (sqlite3) or a heavy tree would otherwise be built by every
 * `npm ci` in CI, where the bench never runs. Installed once per exact version, then reused.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** An installed peer: its package folder, version and bins (paths inside the folder). */
export interface InstalledPeer {
  dir: string;
  version: string;
  bin: Record<string, string>;
}

/**
 * `name@version` installed under `<outDir>/peers/<name>@<version>` (once), and where it is.
 *
 * @example
 * ```ts
 * const peer = await installPeer(outDir, 'mcp-fetch-server', '1.1.2');
 * const bin = join(peer.dir, peer.bin['mcp-fetch-server']!);
 * ```
 */
export async function installPeer(outDir: string, name: string, version: string): Promise<InstalledPeer> {
  const prefix = join(outDir, 'peers', `${name.replace('/', '+')}@${version}`);
  const dir = join(prefix, 'node_modules', ...name.split('/'));
  if (!existsSync(join(dir, 'package.json'))) {
    process.stderr.write(`Installing the peer ${name}@${version} (once) into ${prefix}\n`);
    await mkdir(prefix, { recursive: true });
    await promisify(execFile)(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `${name}@${version}`,
      ],
      { timeout: 900_000 },
    );
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string;
    bin?: string | Record<string, string>;
  };
  const bin =
    typeof manifest.bin === 'string'
      ? { [name.split('/').pop() ?? name]: manifest.bin }
      : (manifest.bin ?? {});
  return { dir, version: manifest.version, bin };
}

/** The path of the peer's bin called `binName`; throws when it has none of that name. */
export function peerBin(peer: InstalledPeer, binName: string, name: string): string {
  const file = peer.bin[binName];
  if (!file) throw new Error(`${name} declares no bin named ${binName}.`);
  return join(peer.dir, file);
}
