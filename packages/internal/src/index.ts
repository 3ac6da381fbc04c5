// Entry of @garuda/internal: bundled into each package that uses it, never published.
export { brand } from './brand.js';
export { CodedError } from './coded-error.js';
export { quote, shorten } from './quote.js';
export type { QuoteOptions } from './quote.js';
export { kindOf } from './kind-of.js';
export { errnoCode } from './errno-code.js';
export { isRecord } from './is-record.js';
export { log } from './log.js';
export type { LogLevel, OptionalLogger } from './log.js';
export { modesOf, quotedModes } from './modes.js';
export { SERVER_HOME_VARIABLE } from './server-home-variable.js';
export { capLine, groupDigits, headLine, quoteLine } from './one-line.js';
export { SERVER_ORIGINS, nameKey, settleNames } from './name-clash.js';
export type { NameClaim, NameClash, NamePrefix, ServerOrigin, SettledNames } from './name-clash.js';
export { JSON_MARKERS } from './json-markers.js';
export { MCP_LOG_LEVELS } from './mcp-log-levels.js';
export type { McpLogLevel } from './mcp-log-levels.js';
