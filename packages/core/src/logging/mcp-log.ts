import type { ServerContext } from '@modelcontextprotocol/server';
import type { Logger, LogLevel } from './logger.js';

/** Log messages for the client that made a request. */
export interface McpLog {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
}

/**
 * Logs to the client that made the request, by each era's rule: in 2025 the session's
 * `logging/setLevel` filters; in 2026 a message is sent only when the request itself asked for a
 * level (the SDK drops it otherwise). Everything also goes to the process log at debug level, so
 * diagnostics survive the 2026 deprecation of MCP logging.
 *
 * @example
 * ```ts
 * const log = mcpLog(call.ctx, app.log, 'search_files');
 * log.info('scanned 120 files');
 * ```
 */
export function mcpLog(ctx: ServerContext, processLog: Logger, logger: string): McpLog {
  const at = (level: LogLevel) => (message: string) => {
    processLog.debug(`${logger}: ${message}`);
    ctx.mcpReq.log(level, message, logger).catch(() => {});
  };
  return { debug: at('debug'), info: at('info'), warning: at('warning'), error: at('error') };
}
