// MCP's log levels (RFC 5424's syslog severities), least severe first: the one list the manager
// checks a server's level against and the gateway filters a host's level by.

/** An MCP log level. */
export type McpLogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Every MCP log level, least severe first. */
export const MCP_LOG_LEVELS: readonly McpLogLevel[] = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);
