/**
 * @internal Reading the system's mount table: which directories are mount points, and of what file
 * system type. Each platform says it differently; this file turns each into one list.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** One mounted file system: where it is mounted and its type as the system names it. */
export interface Mount {
  /** The mount point, an absolute path. */
  readonly path: string;
  /** The file system type: `ext4`, `nfs4`, `fuse.sshfs`, `smbfs`… */
  readonly type: string;
}

/**
 * File system types whose calls can wait on something other than a local disk: a network server,
 * a user-space daemon (FUSE), a hypervisor or an automounter. A call on one of them can block for
 * minutes, or for ever on a hard NFS mount, so nothing on them is read synchronously.
 */
const SLOW_TYPES = new Set([
  // network file systems
  'nfs',
  'nfs4',
  'cifs',
  'smb3',
  'smbfs',
  'afpfs',
  'webdav',
  'davfs',
  'ncpfs',
  'afs',
  'coda',
  'ceph',
  'glusterfs',
  'lustre',
  'gpfs',
  'beegfs',
  'fhgfs',
  'orangefs',
  'pvfs2',
  'panfs',
  'cvfs',
  'ocfs2',
  'gfs2',
  // user-space and hypervisor file systems
  'fuse',
  'fuseblk',
  'fusefs',
  'puffs',
  'macfuse',
  'osxfuse',
  'fuse-t',
  '9p',
  'virtiofs',
  'vboxsf',
  'vmhgfs',
  'prl_fs',
  // an automount point: the first call mounts, and waits for, whatever it stands for
  'autofs',
]);

/** Whether calls on a file system of this type may wait on the network or a daemon. */
export function isSlowType(type: string): boolean {
  const lower = type.toLowerCase();
  return SLOW_TYPES.has(lower) || /^fuse(fs)?[.-]/.test(lower);
}

/** Undoes the octal escapes (`\040` for a space) that mount tables use in paths. */
function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 8)));
}

/**
 * Linux's `/proc/self/mountinfo`: `id parent major:minor root mountpoint options [tags…] - type
 * source superoptions`. The mount point is field 5, the type follows the lone `-`.
 */
export function parseMountInfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-', 6);
    const point = fields[4];
    const type = fields[dash + 1];
    if (dash < 0 || point === undefined || type === undefined) continue;
    mounts.push({ path: unescapeOctal(point), type });
  }
  return mounts;
}

/**
 * The BSD and macOS `mount` listing: `source on /mount/point (type, option, …)` on macOS and
 * FreeBSD, `source on /mount/point type fstype (options)` on OpenBSD and NetBSD. A mount point may
 * hold " on " itself ("/Volumes/Photos on NAS"), so the line splits at the first " on /".
 */
export function parseMountListing(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const match = /^.*? on (\/.*) \(([^)]*)\)\s*$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const typed = /^(.*) type (\S+)$/.exec(match[1]);
    const type = typed ? typed[2] : match[2].split(',')[0]?.trim();
    const path = typed ? typed[1] : match[1];
    if (path && type) mounts.push({ path, type });
  }
  return mounts;
}

/**
 * The mount table as this platform gives it, or `undefined` where it cannot be read (Windows has
 * none: its network shares are recognised by their `\\server\share` form instead). Reading
 * `/proc/self/mountinfo` never blocks on a mount; macOS and the BSDs run `mount`, once, off the
 * main thread.
 */
export async function readMountTable(platform = process.platform): Promise<Mount[] | undefined> {
  if (platform === 'linux') return readLinuxMounts();
  if (platform === 'win32') return undefined;
  return new Promise((resolve) => {
    execFile('/sbin/mount', [], { timeout: 5_000 }, (error, stdout) => {
      resolve(error ? undefined : parseMountListing(stdout));
    });
  });
}

/** Linux's table, read synchronously: procfs answers from the kernel's memory, never a disk. */
export function readLinuxMounts(): Mount[] | undefined {
  try {
    return parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8'));
  } catch {
    return undefined;
  }
}
