/**
 * The inputs of the review corpus that a model can send (attacks-review-inputs.test.ts), and the
 * world they run in: secrets under other spellings and behind links, special files, file:// URIs
 * that try to leave the root, and links that lead out.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { World } from './attacks-review-kit.js';

export interface Attack {
  name: string;
  tool: string;
  args: (w: World) => Record<string, unknown>;
  /** Harmless success is allowed (the link itself is deleted, not what it points to). */
  maySucceed?: boolean;
}

export const ATTACKS: Attack[] = [
  // Secrets under other spellings and through links
  {
    name: '.env with a trailing space',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, '.env ') }),
  },
  {
    name: '.Env.Local (case)',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, '.Env.Local') }),
  },
  {
    name: 'a link with an innocent name to .ssh',
    tool: 'list_directory',
    args: (w) => ({ path: join(w.allowed, 'keys') }),
  },
  {
    name: '.ssh/ as a directory path',
    tool: 'list_directory',
    args: (w) => ({ path: `${w.allowed}/.ssh/` }),
  },
  {
    name: 'info on a key in .ssh',
    tool: 'get_file_info',
    args: (w) => ({ path: join(w.allowed, '.ssh', 'id_rsa') }),
  },
  {
    name: 'a key read through the .ssh link',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, 'keys', 'id_rsa') }),
  },
  {
    name: 'copy .env to an innocent name',
    tool: 'copy_file',
    args: (w) => ({ source: join(w.allowed, '.env'), destination: join(w.allowed, 'plain.txt') }),
  },
  {
    name: 'rename .ssh as a whole',
    tool: 'move_file',
    args: (w) => ({ source: join(w.allowed, '.ssh'), destination: join(w.allowed, 'ssh-old') }),
  },
  {
    name: 'move a file into .ssh',
    tool: 'move_file',
    args: (w) => ({
      source: join(w.allowed, 'a.txt'),
      destination: join(w.allowed, '.ssh', 'authorized_keys'),
    }),
  },
  {
    name: 'write authorized_keys',
    tool: 'write_file',
    args: (w) => ({
      path: join(w.allowed, '.ssh', 'authorized_keys'),
      content: 'ssh-ed25519 AAAA',
      confirm: true,
    }),
  },
  { name: 'create .aws/x', tool: 'create_directory', args: (w) => ({ path: join(w.allowed, '.aws', 'x') }) },
  {
    name: 'delete .env',
    tool: 'delete_file',
    args: (w) => ({ path: join(w.allowed, '.env'), confirm: true }),
  },
  {
    name: 'edit .env through a link',
    tool: 'edit_file',
    args: (w) => ({ path: join(w.allowed, 'notes.txt'), edits: [{ oldText: 'TOKEN', newText: 'X' }] }),
  },
  {
    name: 'patch .env',
    tool: 'apply_patch',
    args: () => ({ patch: '--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-TOKEN=hunter2\n+X\n' }),
  },
  // Special files
  {
    name: 'read_media_file on a FIFO named .png',
    tool: 'read_media_file',
    args: (w) => ({ path: join(w.allowed, 'p.png') }),
  },
  { name: 'read a Unix socket', tool: 'read_text_file', args: (w) => ({ path: join(w.allowed, 'sock') }) },
  {
    name: 'copy a FIFO',
    tool: 'copy_file',
    args: (w) => ({ source: join(w.allowed, 'p.png'), destination: join(w.allowed, 'q.png') }),
  },
  // URIs and normalisation
  {
    name: 'file:// URI with %2e%2e',
    tool: 'read_text_file',
    args: (w) => ({ path: `${pathToFileURL(w.allowed).href}/%2e%2e/outside/secret.txt` }),
  },
  {
    name: 'file:// URI with %2E%2E and an encoded slash',
    tool: 'read_text_file',
    args: (w) => ({ path: `${pathToFileURL(w.allowed).href}/%2E%2E%2Foutside%2Fsecret.txt` }),
  },
  {
    name: 'file:// URI on another host',
    tool: 'read_text_file',
    args: (w) => ({ path: `file://evil.example${w.allowed}/a.txt` }),
  },
  {
    name: 'file:// URI with %00',
    tool: 'read_text_file',
    args: (w) => ({ path: `${pathToFileURL(w.allowed).href}/a.txt%00.png` }),
  },
  {
    name: 'file://localhost to outside',
    tool: 'read_text_file',
    args: (w) => ({ path: `file://localhost${w.outside}/secret.txt` }),
  },
  { name: '~name (another user)', tool: 'read_text_file', args: () => ({ path: '~root/../../etc/passwd' }) },
  {
    name: 'U+2028 and a bidi override in a path',
    tool: 'read_text_file',
    args: (w) => ({ path: `${w.allowed}/a\u2028b\u202Etxt.exe` }),
  },
  // Links and trees
  {
    name: 'delete a directory link recursively (the link goes, the target stays)',
    tool: 'delete_file',
    args: (w) => ({ path: join(w.allowed, 'd'), recursive: true, confirm: true }),
    maySucceed: true,
  },
  {
    name: 'delete the root with a trailing slash',
    tool: 'delete_file',
    args: (w) => ({ path: `${w.allowed}/`, recursive: true, confirm: true }),
  },
  {
    name: 'delete the root as "sub/.."',
    tool: 'delete_file',
    args: () => ({ path: 'tree/..', recursive: true, confirm: true }),
  },
  {
    name: 'move a directory into itself through a link',
    tool: 'move_file',
    args: (w) => ({ source: join(w.allowed, 'tree'), destination: join(w.allowed, 'via', 'inner', 'x') }),
  },
  {
    name: 'patch with cwd through a link to outside',
    tool: 'apply_patch',
    args: (w) => ({
      cwd: join(w.allowed, 'd'),
      patch: '--- a/secret.txt\n+++ b/secret.txt\n@@ -1 +1 @@\n-top secret\n+pwned\n',
    }),
  },
  {
    name: 'tree over a link to outside',
    tool: 'directory_tree',
    args: (w) => ({ path: w.allowed }),
    maySucceed: true,
  },
  {
    name: 'search_content for the outside secret',
    tool: 'search_content',
    args: (w) => ({ path: w.allowed, query: 'op secre' }),
    maySucceed: true,
  },
  {
    name: 'search_files through a link',
    tool: 'search_files',
    args: (w) => ({ path: w.allowed, pattern: '**/secret.txt' }),
    maySucceed: true,
  },
  // Existence probes through a link that leads out (finding: they used to answer differently)
  {
    name: 'probe: a file behind the outward link',
    tool: 'read_text_file',
    args: (w) => ({ path: join(w.allowed, 'd', 'secret.txt', 'x') }),
  },
  {
    name: 'probe: a directory behind the outward link',
    tool: 'write_file',
    args: (w) => ({ path: join(w.allowed, 'd', 'dir', 'x', 'y'), content: 'x' }),
  },
];

export function setUpCorpus(w: World): Promise<Server> {
  const a = w.allowed;
  writeFileSync(join(a, 'a.txt'), 'a\n');
  writeFileSync(join(a, '.env'), 'TOKEN=hunter2\n');
  writeFileSync(join(a, '.env '), 'TOKEN=hunter2\n');
  writeFileSync(join(a, '.Env.Local'), 'TOKEN=hunter2\n');
  mkdirSync(join(a, '.ssh'));
  writeFileSync(join(a, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  symlinkSync(join(a, '.ssh'), join(a, 'keys'));
  symlinkSync(w.outside, join(a, 'd'));
  symlinkSync(join(a, '.env'), join(a, 'notes.txt'));
  mkdirSync(join(a, 'tree', 'inner'), { recursive: true });
  writeFileSync(join(a, 'tree', 'inner', 'f.txt'), 'f\n');
  symlinkSync(join(a, 'tree'), join(a, 'via'));
  mkdirSync(join(w.outside, 'dir'));
  writeFileSync(join(w.outside, 'dir', 'outside-only.txt'), 'outside-only\n');
  execFileSync('mkfifo', [join(a, 'p.png')]);
  const server = createServer();
  return new Promise((resolve) => server.listen(join(a, 'sock'), () => resolve(server)));
}
