/**
 * The process logger. It writes to stderr only: on stdio, stdout belongs to the protocol and a
 * stray byte there corrupts the stream. MCP log messages to the client are separate
 * (see `mcp-log.ts`), because in the 2026 era they exist only when a request asks for them.
 */

/** Levels in RFC 5424 order, the same names MCP's `logging/setLevel` uses. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** The least severe level written. */
  readonly level: LogLevel;
}

export interface LoggerOptions {
  /** Least severe level to write; default `info`. */
  level?: LogLevel;
  /** Prefix for every line, usually the bin name. */
  name?: string;
  /** Where lines go; default `process.stderr`. Tests pass an array sink. */
  write?: (line: string) => void;
}

/** True when `value` names a log level. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** Numeric severity of a level, so levels can be compared. */
export function severity(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/**
 * A stderr logger with a level filter.
 *
 * @example
 * ```ts
 * const log = createLogger({ name: 'mcpkit-filesystem', level: 'debug' });
 * log.info('serving 2 directories');
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const min = severity(level);
  const prefix = options.name ? `[${options.name}] ` : '';
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const at = (l: LogLevel) => (message: string) => {
    if (severity(l) >= min) write(`${prefix}${l}: ${message}`);
  };
  return { level, debug: at('debug'), info: at('info'), warn: at('warning'), error: at('error') };
}

/** A logger that drops everything; the default where none is given. */
export const silentLogger: Logger = {
  level: 'emergency',
  debug() {},
  info() {},
  warn() {},
  error() {},
};
