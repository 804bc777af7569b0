/**
 * How the command lines `config` prints are read back into argv: POSIX lines by a real `sh`, with
 * the program replaced by a function that prints its arguments; Windows lines by the two parsers
 * they meet there, Command Prompt's `^` escapes and then the C runtime's argument splitting.
 */
import { spawnSync } from 'node:child_process';

/** The argv a POSIX shell gives the program `line` runs (whose name must be `claude` or `code`). */
export function shArgv(line: string): string[] {
  const script = `claude() { printf '%s\\0' claude "$@"; }\ncode() { printf '%s\\0' code "$@"; }\n${line}`;
  const result = spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  if (result.status !== 0) throw new Error(`sh failed: ${result.stderr}`);
  return result.stdout.split('\0').slice(0, -1);
}

/** Command Prompt's pass: outside its quotes (every `"` flips them), `^x` is `x`. */
function undoCmd(line: string): string {
  let quoted = false;
  let out = '';
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i] as string;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '^') {
      i += 1;
      out += line[i] ?? '';
      continue;
    }
    out += ch;
  }
  return out;
}

/** The Microsoft C runtime's split: `\"` is a quote, 2n backslashes before `"` are n. */
function splitMsvcrt(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let started = false;
  let quoted = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i] as string;
    if (ch === '\\') {
      let n = 0;
      while (line[i] === '\\') {
        n += 1;
        i += 1;
      }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) {
          current += '"';
          i += 1;
        }
      } else {
        current += '\\'.repeat(n);
      }
      started = true;
    } else if (ch === '"') {
      quoted = !quoted;
      started = true;
      i += 1;
    } else if (!quoted && (ch === ' ' || ch === '\t')) {
      if (started) args.push(current);
      current = '';
      started = false;
      i += 1;
    } else {
      current += ch;
      started = true;
      i += 1;
    }
  }
  if (started) args.push(current);
  return args;
}

/** The argv a Windows program gets from `line` typed into Command Prompt. */
export function cmdArgv(line: string): string[] {
  return splitMsvcrt(undoCmd(line.trimEnd()));
}

/** Arguments that break naive quoting. */
export const AWKWARD_ARGS = [
  '/Users/you/My Projects',
  "it's",
  'say "hi"',
  '$HOME and `pwd`',
  'C:\\Users\\you\\My Docs\\',
  'a\\"b',
  'fish & chips | more > out < in ^ (x)',
  '',
  '--read-only',
];
