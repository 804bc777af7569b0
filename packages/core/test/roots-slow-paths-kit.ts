/**
 * Stand-in mount tables for the SlowPaths tests (roots-slow-paths*.test.ts), in the text the
 * system gives, so mount-table.ts still parses them.
 */

/** Lines of /proc/self/mountinfo for the given mount points and types. */
export function mountinfo(mounts: [string, string][]): string {
  return mounts
    .map(
      ([point, type], i) =>
        `${30 + i} 1 0:${40 + i} / ${point.replaceAll(' ', '\\040')} rw,relatime shared:${i + 1} - ${type} src rw\n`,
    )
    .join('');
}

/** A Linux machine with an NFS share, a local cache inside it, an sshfs mount and an automount point. */
export const LINUX: [string, string][] = [
  ['/', 'ext4'],
  ['/mnt/nfs', 'nfs4'],
  ['/mnt/nfs/cache', 'tmpfs'],
  ['/home/alice/My Drive', 'fuse.sshfs'],
  ['/net', 'autofs'],
];
