/**
 * The mount table parsers and the slow-type verdict, on lines as Linux (/proc/self/mountinfo),
 * macOS and the BSDs (`mount` with no arguments) print them.
 */
import { describe, expect, it } from 'vitest';
import { isSlowType, parseMountInfo, parseMountListing, readLinuxMounts } from '../src/roots/mount-table.js';

/** Real mountinfo shapes: optional tags before the lone `-`, octal escapes, bind and stacked mounts. */
const MOUNTINFO = [
  '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro',
  '25 22 0:23 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw,inode64',
  '36 22 0:32 / /home/alice/My\\040Drive rw,nosuid,nodev,relatime shared:150 - fuse.sshfs alice@files.example.org:/srv/drive rw,user_id=1000,group_id=1000',
  '41 22 0:35 / /mnt/nfs rw,relatime shared:160 - nfs4 nas.example.org:/export rw,vers=4.2,hard,proto=tcp,timeo=600,retrans=2,sec=sys,addr=10.0.0.2',
  '45 22 0:40 / /net rw,relatime shared:170 - autofs /etc/auto.net rw,fd=7,pgrp=1234,timeout=300,minproto=5,maxproto=5,indirect',
  '50 22 0:45 / /mnt/win\\040share rw,relatime shared:180 master:3 - cifs //fileserver/public rw,vers=3.1.1,cache=strict,username=guest,addr=10.0.0.3',
  '60 22 0:50 / /var/lib/docker/overlay2/abc/merged rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/X,upperdir=/var/lib/docker/overlay2/abc/diff,workdir=/var/lib/docker/overlay2/abc/work',
  '70 22 8:1 /srv/data /mnt/bind rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro',
  '',
].join('\n');

describe('parseMountInfo', () => {
  it('reads the mount point and type of every line, with or without optional tags', () => {
    expect(parseMountInfo(MOUNTINFO)).toEqual([
      { path: '/', type: 'ext4' },
      { path: '/dev/shm', type: 'tmpfs' },
      { path: '/home/alice/My Drive', type: 'fuse.sshfs' },
      { path: '/mnt/nfs', type: 'nfs4' },
      { path: '/net', type: 'autofs' },
      { path: '/mnt/win share', type: 'cifs' },
      { path: '/var/lib/docker/overlay2/abc/merged', type: 'overlay' },
      // a bind mount: field 4 is the root inside the source file system, field 5 the mount point
      { path: '/mnt/bind', type: 'ext4' },
    ]);
  });

  it('undoes every octal escape the kernel writes: space, tab, newline and backslash', () => {
    const line = '90 22 0:60 / /mnt/a\\040b\\011c\\012d\\134e rw - nfs server:/x rw';
    expect(parseMountInfo(line)).toEqual([{ path: '/mnt/a b\tc\nd\\e', type: 'nfs' }]);
  });

  it('finds the separator past several tags, and not a "-" that is a mount point name or source', () => {
    const text = [
      '91 22 0:61 / /mnt/- rw shared:7 master:2 propagate_from:1 unbindable - 9p - rw,trans=virtio',
      '92 22 0:62 / /mnt/plain rw - tmpfs - rw',
    ].join('\n');
    expect(parseMountInfo(text)).toEqual([
      { path: '/mnt/-', type: '9p' },
      { path: '/mnt/plain', type: 'tmpfs' },
    ]);
  });

  it('skips blank, short and separator-less lines instead of inventing mounts', () => {
    const text = ['', 'garbage', '1 2 3', '93 22 0:63 / /mnt/no-dash rw shared:1 ext4 /dev/sdb rw', ' '].join(
      '\n',
    );
    expect(parseMountInfo(text)).toEqual([]);
  });

  it('keeps stacked mounts of one point, in the order the kernel lists them', () => {
    const text = [
      '100 22 8:17 / /srv/share rw - ext4 /dev/sdb1 rw',
      '101 100 0:70 / /srv/share rw - nfs4 nas:/share rw',
    ].join('\n');
    expect(parseMountInfo(text).map((m) => m.type)).toEqual(['ext4', 'nfs4']);
  });

  it('reads this machine’s own table into absolute mount points, the root among them', () => {
    // Whatever is mounted here, the table has "/" and every entry is an absolute path.
    const mounts = readLinuxMounts();
    if (process.platform !== 'linux') {
      expect(mounts).toBeUndefined();
      return;
    }
    expect(mounts?.some((m) => m.path === '/')).toBe(true);
    for (const m of mounts ?? []) expect(m.path.startsWith('/')).toBe(true);
  });
});

describe('parseMountListing (macOS and BSD mount)', () => {
  const MACOS = [
    '/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)',
    'devfs on /dev (devfs, local, nobrowse)',
    '/dev/disk3s5 on /System/Volumes/Data (apfs, local, journaled, nobrowse, protect, root data)',
    'map auto_home on /System/Volumes/Data/home (autofs, automounted, nobrowse)',
    '//user@server/share on /Volumes/share (smbfs, nodev, nosuid, mounted by user)',
    '/dev/disk5s1 on /Volumes/Untitled (2) (msdos, local, nodev, nosuid, noowners, mounted by user)',
    'nas.local:/export/home on /Volumes/home (nfs, nodev, nosuid, mounted by user)',
    'me@host:/ on /Users/me/remote dir (macfuse, nodev, nosuid, synchronous, mounted by me)',
    '',
  ].join('\n');

  it('reads the mount point and the first word in parentheses as the type', () => {
    expect(parseMountListing(MACOS)).toEqual([
      { path: '/', type: 'apfs' },
      { path: '/dev', type: 'devfs' },
      { path: '/System/Volumes/Data', type: 'apfs' },
      { path: '/System/Volumes/Data/home', type: 'autofs' },
      { path: '/Volumes/share', type: 'smbfs' },
      { path: '/Volumes/Untitled (2)', type: 'msdos' },
      { path: '/Volumes/home', type: 'nfs' },
      { path: '/Users/me/remote dir', type: 'macfuse' },
    ]);
  });

  it('reads FreeBSD lines, a type alone in its parentheses too', () => {
    const text = [
      '/dev/ada0p2 on / (ufs, local, journaled soft-updates)',
      'zroot/ROOT/default on /usr/home (zfs, local, noatime, nfsv4acls)',
      'fileserver:/export on /mnt/nfs (nfs)',
    ].join('\n');
    expect(parseMountListing(text)).toEqual([
      { path: '/', type: 'ufs' },
      { path: '/usr/home', type: 'zfs' },
      { path: '/mnt/nfs', type: 'nfs' },
    ]);
  });

  it('splits after a source that itself holds " on "', () => {
    const line = 'map share on demand on /Volumes/auto (autofs, automounted, nobrowse)';
    expect(parseMountListing(line)).toEqual([{ path: '/Volumes/auto', type: 'autofs' }]);
  });

  it('keeps a mount point that holds " on " whole, so the mount point stays absolute', () => {
    // macOS names a volume after its share; "Photos on NAS" is an ordinary volume name.
    const line = '//me@nas/Photos on /Volumes/Photos on NAS (smbfs, nodev, nosuid, mounted by me)';
    expect(parseMountListing(line)).toEqual([{ path: '/Volumes/Photos on NAS', type: 'smbfs' }]);
  });

  it('reads the OpenBSD and NetBSD form, which names the type after "type"', () => {
    // Their mount(8) prints "special on node type fstype (options)".
    const text = [
      '/dev/sd0a on / type ffs (local)',
      'nas:/export on /mnt/nfs type nfs (v3, udp, timeo=100)',
    ].join('\n');
    expect(parseMountListing(text)).toEqual([
      { path: '/', type: 'ffs' },
      { path: '/mnt/nfs', type: 'nfs' },
    ]);
  });

  it('skips lines that are no mount entry', () => {
    expect(parseMountListing(['', 'mount: /x: not mounted', 'on (nfs)'].join('\n'))).toEqual([]);
  });
});

describe('isSlowType', () => {
  it.each([
    'nfs',
    'nfs4',
    'cifs',
    'smb3',
    'smbfs',
    'autofs',
    'fuse',
    'fuseblk',
    'fuse.sshfs',
    'fuse.rclone',
    'fuse-t',
    'macfuse',
    '9p',
    'virtiofs',
    'NFS',
    'Fuse.SSHFS',
  ])('%s may stall', (type) => {
    expect(isSlowType(type)).toBe(true);
  });

  it.each([
    'ext4',
    'xfs',
    'btrfs',
    'zfs',
    'ufs',
    'apfs',
    'hfs',
    'msdos',
    'tmpfs',
    'overlay',
    'proc',
    'devfs',
    'squashfs',
    // look-alikes: the FUSE control file system, the NFS server's own, the RPC pipes
    'fusectl',
    'nfsd',
    'rpc_pipefs',
  ])('%s is local', (type) => {
    expect(isSlowType(type)).toBe(false);
  });

  it('knows FreeBSD’s FUSE mounts, whose type is "fusefs" or "fusefs.<daemon>"', () => {
    expect(isSlowType('fusefs')).toBe(true);
    expect(isSlowType('fusefs.sshfs')).toBe(true);
  });
});
