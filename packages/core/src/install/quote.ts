/**
 * Command lines a user pastes into a terminal: POSIX shells (macOS, Linux) and Command Prompt on
 * Windows. Each argument must reach the program byte for byte, whatever it holds: spaces, quotes,
 * `$`, backslashes.
 */

/** Characters a POSIX shell passes through unquoted and unexpanded. */
const POSIX_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument for sh, bash or zsh: single quotes, where nothing is special but `'` itself. */
export function posixQuote(arg: string): string {
  return POSIX_SAFE.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * One argument as Windows programs split their command line (the Microsoft C runtime rules that
 * Node, Electron and CommandLineToArgvW share): inside double quotes, `\"` is a quote, and
 * backslashes are literal unless they precede a quote, when each one is doubled.
 */
export function windowsArgQuote(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes += 1;
      continue;
    }
    out += ch === '"' ? `${'\\'.repeat(backslashes * 2 + 1)}"` : `${'\\'.repeat(backslashes)}${ch}`;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}

/**
 * Command Prompt reads the line before the program does: outside what it sees as quotes (it knows
 * nothing of `\"`, so every `"` flips its state), `& | < > ^ ( )` are its own and must be escaped
 * with `^`. `%name%` of a defined variable is expanded even inside quotes and has no escape there,
 * which is why arguments holding `%` are best given in a config file instead.
 */
export function cmdEscape(line: string): string {
  let quoted = false;
  let out = '';
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && '&|<>^()'.includes(ch)) out += '^';
    out += ch;
  }
  return out;
}

/** The command line that runs `argv`, for a POSIX shell or for Command Prompt. */
export function commandLine(argv: readonly string[], windows = false): string {
  if (!windows) return argv.map(posixQuote).join(' ');
  return cmdEscape(argv.map(windowsArgQuote).join(' '));
}
