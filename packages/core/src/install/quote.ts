/**
 * Command lines a user pastes into a terminal: POSIX shells (macOS, Linux) and Command Prompt on
 * Windows. Each argument must reach the program byte for byte, whatever it holds: spaces, quotes,
 * `$`, backslashes. Where that cannot be promised (some lines for Command Prompt), the line is
 * refused rather than printed wrong.
 */
import { UserError } from '../errors/index.js';

/**
 * Words a POSIX shell passes through unquoted and unexpanded. A leading `=` is left out: zsh reads
 * `=word` as the path of the command `word`.
 */
const POSIX_SAFE = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;

/** One argument for sh, bash or zsh: single quotes, where nothing is special but `'` itself. */
export function posixQuote(arg: string): string {
  return POSIX_SAFE.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Characters Command Prompt acts on outside its quotes. */
const CMD_OPERATORS = '&|<>^()';

/**
 * One argument as Windows programs split their command line (the Microsoft C runtime rules that
 * Node, Electron and CommandLineToArgvW share): inside double quotes, `\"` is a quote, and
 * backslashes are literal unless they precede a quote, when each one is doubled. An argument with
 * one of Command Prompt's operators is quoted too, so that Command Prompt leaves it alone.
 */
export function windowsArgQuote(arg: string): string {
  if (arg !== '' && !/[\s"&|<>^()]/.test(arg)) return arg;
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
 * What in `line` Command Prompt would act on, if anything. It reads the line before the program
 * does and knows nothing of `\"`, so every `"` flips its quoting; outside its quotes `& | < > ^ ( )`
 * are its own. `%name%` is expanded even inside quotes, `!` too where delayed expansion is on, and a
 * line break ends the command. A `^` escape is no answer: a `.cmd` shim (npx, claude, code from npm)
 * has the line parsed a second time, an `.exe` once, and no escaping is right for both.
 */
function cmdHazard(line: string): string | undefined {
  const always = /[%!\r\n]/.exec(line)?.[0];
  if (always !== undefined) return always === '\r' || always === '\n' ? 'a line break' : always;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && CMD_OPERATORS.includes(ch)) return ch;
  }
  return undefined;
}

/** The command line that runs `argv`, for a POSIX shell or for Command Prompt. */
export function commandLine(argv: readonly string[], windows = false): string {
  if (!windows) return argv.map(posixQuote).join(' ');
  const line = argv.map(windowsArgQuote).join(' ');
  const hazard = cmdHazard(line);
  if (hazard !== undefined) {
    throw new UserError(
      `This Command Prompt line would hold ${hazard}, which Command Prompt would act on before the program sees it; use the JSON entry instead (without --cli for VS Code; for Claude Code, the claude-desktop entry's "mcpServers" in .mcp.json).`,
    );
  }
  return line;
}
