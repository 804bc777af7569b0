/**
 * How the command lines `config` prints are read back into argv: POSIX lines by a real `sh`, with
 * the program replaced by a function that prints its arguments; Windows lines by the C runtime's
 * argument splitting, after checking that Command Prompt, which reads them first, would leave them be.
 */
import { spawnSync } from 'node:child_process';

/** The argv a POSIX shell gives the program `line` runs (whose name must be `claude` or `code`). */
export function shArgv(line: string): string[] {
  const script = `claude() { printf '%s\\0' claude "$@"; }\ncode() { printf '%s\\0' code "$@"; }\n${line}`;
  const result = spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  if (result.status !== 0) throw new Error(`sh failed: ${result.stderr}`);
  return result.stdout.split('\0').slice(0, -1);
}

/**
 * Whether Command Prompt would act on anything in `line` before the program sees it: `%`, `!` or a
 * line break anywhere, or `& | < > ^ ( )` outside what it takes for quotes (every `"` flips them).
 * A line it would change cannot be trusted to reach the program as printed.
 */
function cmdActsOn(line: string): boolean {
  if (/[%!\r\n]/.test(line)) return true;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && '&|<>^()'.includes(ch)) return true;
  }
  return false;
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
  const trimmed = line.replace(/\r?\n$/, '');
  if (cmdActsOn(trimmed)) throw new Error(`Command Prompt would act on this line: ${trimmed}`);
  return splitMsvcrt(trimmed);
}

/**
 * Arguments that break naive quoting. Those holding `& | < > ^ ( ) % ! "` cannot be given to
 * `cmd /c npx` at all (see CMD_SAFE_ARGS for the rest).
 */
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

/** The awkward arguments Command Prompt has nothing to act on in, even unquoted. */
export const CMD_SAFE_ARGS = AWKWARD_ARGS.filter((arg) => !/[&|<>^%!()"]/.test(arg));

/** The refusal of an argument in the Windows npx form: one sentence naming the argument and the way out. */
export const CMD_NPX_REFUSAL =
  /^"[^\n]*" holds [^\n]+, which Command Prompt would act on in the cmd \/c npx form; use --absolute, which starts Node directly\.$/;

/** The refusal of a Command Prompt line: one sentence pointing to the JSON entry. */
export const CMD_LINE_REFUSAL =
  /^This Command Prompt line would hold [^\n]+; use the JSON entry instead [^\n]*\.$/;
