export {
  createLogger,
  isLogLevel,
  LOG_LEVELS,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  severity,
  silentLogger,
} from './logger.js';
export { type McpLog, mcpLog } from './mcp-log.js';
