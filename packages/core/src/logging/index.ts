/**
 * The process log (stderr, never stdout on stdio). A handler's MCP log messages go through
 * `call.log`, which follows each era's rule.
 */
export { createLogger, type Logger, type LoggerOptions, type LogLevel, silentLogger } from './logger.js';
export type { McpLog } from './mcp-log.js';
