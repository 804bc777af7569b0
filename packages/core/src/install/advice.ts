/**
 * Warnings the `config` command prints on stderr beside an entry that would work today but break
 * later or elsewhere: the entry itself is still printed, since the user may know better.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';

/**
 * One sentence per server argument that names an existing file or folder by a relative path: a
 * host starts the server in a folder of its own choosing, where that path means something else.
 */
export function relativePathAdvice(args: readonly string[], cwd: string): string[] {
  return args
    .filter((arg) => arg !== '' && !arg.startsWith('-') && !arg.startsWith('~') && !isAbsolute(arg))
    .filter((arg) => existsSync(resolve(cwd, arg)))
    .map(
      (arg) =>
        `"${arg}" is a relative path, and a host starts the server in a folder of its own: give it as an absolute path.`,
    );
}

/**
 * A sentence when the absolute form points into npx's cache (`…/_npx/…`), which npm clears
 * without asking: the entry would stop working then.
 */
export function npxCacheAdvice(script: string, packageName: string): string[] {
  if (!script.includes(`${sep}_npx${sep}`)) return [];
  return [
    `This copy runs from npx's cache, which npm may clear; install it with "npm install -g ${packageName}" and print the entry from that copy instead.`,
  ];
}
