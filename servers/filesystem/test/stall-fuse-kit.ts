/**
 * The real stalled FUSE mount the stall-fuse tests share. `fixtures/stall-fs.py` mirrors a
 * directory through FUSE and, while a control file exists, lets every request wait in the kernel
 * as a dead network mount does, each one holding the thread that sent it, and prints one line per
 * request it holds. Needs Linux, /dev/fuse, the right to mount (root here), Python 3 with fusepy,
 * and a way to unmount; without them {@link mountStallFs} says why, and the tests skip.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMountInfo } from '@mcpkit/core/roots';

const SCRIPT = fileURLToPath(new URL('./fixtures/stall-fs.py', import.meta.url));
/** Generous: a loaded machine may take a while to start Python and mount. */
const MOUNT_WAIT_MS = 15_000;

/** A Python that has fusepy: Debian's first (it sees dist-packages), then whatever is on PATH. */
function findPython(): string | undefined {
  const probe = 'try:\n import fusepy\nexcept ImportError:\n import fuse';
  return ['/usr/bin/python3', 'python3'].find((cmd) => spawnSync(cmd, ['-c', probe]).status === 0);
}

/** A command that lazily detaches a mount point given as its last argument. */
function findUnmount(): string[] | undefined {
  const tools = [
    ['fusermount3', '-u', '-z'],
    ['fusermount', '-u', '-z'],
    ['umount', '-l'],
  ];
  return tools.find(([cmd]) => spawnSync(cmd as string, ['-V']).status === 0);
}

/** The type the mount table gives `dir`, if something is mounted there. */
export function mountType(dir: string): string | undefined {
  return parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8')).findLast((m) => m.path === dir)?.type;
}

/**
 * One mounted stalling file system. `base` is a local directory holding `local` (a.txt, b.txt,
 * c.txt), `backing` (notes.txt, docs/more.txt), the mount point `mnt` that mirrors `backing`, and
 * `control`, the file whose presence stalls the mount.
 */
export interface Fuse {
  base: string;
  local: string;
  mnt: string;
  control: string;
  daemon: ChildProcess;
  /** Hears each line the daemon prints: `held getattr /notes.txt`, `gave up getattr /notes.txt`. */
  onLine: (line: string) => void;
  unmount: string[];
}

/** Stops the stall, kills the daemon (its pending requests then fail) and detaches the mount. */
export function teardown(fuse: Fuse): void {
  rmSync(fuse.control, { force: true });
  if (fuse.daemon.exitCode === null && fuse.daemon.signalCode === null) fuse.daemon.kill('SIGKILL');
  if (mountType(fuse.mnt) !== undefined) {
    const [cmd, ...args] = fuse.unmount;
    spawnSync(cmd as string, [...args, fuse.mnt]);
  }
  // Never recurse into a mount that is somehow still there.
  if (mountType(fuse.mnt) === undefined) rmSync(fuse.base, { recursive: true, force: true });
}

/**
 * Mounts the stalling file system over a small tree, or says why it cannot. A request held longer
 * than `giveUpSeconds` fails with EIO and prints `gave up …`: the bound on a test that goes wrong.
 */
export async function mountStallFs(giveUpSeconds: number): Promise<Fuse | string> {
  if (process.platform !== 'linux') return 'FUSE mounts are tested on Linux only';
  if (!existsSync('/dev/fuse')) return 'this machine has no /dev/fuse';
  const python = findPython();
  if (!python) return 'no python3 with fusepy (apt-get install python3-fusepy)';
  const unmount = findUnmount();
  if (!unmount) return 'neither fusermount3, fusermount nor umount is available';

  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-fuse-')));
  const [local, backing, mnt] = ['local', 'backing', 'mnt'].map((name) => join(base, name)) as [
    string,
    string,
    string,
  ];
  for (const dir of [local, join(backing, 'docs'), mnt]) mkdirSync(dir, { recursive: true });
  for (const name of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(local, name), `local ${name}\n`);
  writeFileSync(join(backing, 'notes.txt'), 'on the fuse mount\n');
  writeFileSync(join(backing, 'docs', 'more.txt'), 'more\n');

  const control = join(base, 'stall');
  const daemon = spawn(python, [SCRIPT, backing, mnt, control, String(giveUpSeconds)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const fuse: Fuse = { base, local, mnt, control, daemon, onLine: () => {}, unmount };
  let errors = '';
  let partial = '';
  daemon.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) fuse.onLine(line);
  });
  daemon.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  // The last resort if the worker exits without running its hooks.
  process.once('exit', () => teardown(fuse));

  for (let waited = 0; waited < MOUNT_WAIT_MS; waited += 50) {
    if (mountType(mnt) !== undefined) return fuse;
    if (daemon.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  teardown(fuse);
  const said = errors.trim().split('\n').pop();
  return `the FUSE mount did not come up${said ? ` (${said})` : ''}`;
}
