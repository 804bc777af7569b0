export {
  LOG_LEVELS,
  type LogLevel,
  type Logger,
  type LoggerOptions,
  createLogger,
  isLogLevel,
  severity,
  silentLogger,
} from './logger.js';
export { type McpLog, mcpLog } from './mcp-log.js';
