export { TrustStore } from './trust-store.js';
export type { TrustStoreOptions } from './trust-store.js';
export type { TrustStoreLike } from './trust-store-like.js';
export { withFileLock, DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_TIMEOUT_MS } from './file-lock.js';
export type { FileLockOptions, HeldFileLock } from './file-lock.js';
export { LockedJsonFile } from './locked-json-file.js';
export type {
  LockedJsonFileOptions,
  LockedJsonFileContent,
  LockedJsonFileChange,
  JsonFileCheck,
} from './locked-json-file.js';
export type { TrustStoreLogger } from './logger.js';
export type { JsonValue } from './json-value.js';
export { MAX_VALUE_DEPTH } from './json-value.js';
export { MAX_KEY_LENGTH } from './validate-key.js';
export {
  mcpTrustKey,
  mcpTrustPrefix,
  parseMcpTrustKey,
  MCP_TRUST_PREFIX,
} from './mcp-trust-key.js';
export type { McpTrustScope } from './mcp-trust-key.js';
export { readMcpTrustEntry, getMcpTrustEntry } from './mcp-trust-entry.js';
export type { McpTrustEntry } from './mcp-trust-entry.js';
export { hashTools, toolHashes } from './hash-tools.js';
export type { McpTool, ToolHashes } from './hash-tools.js';
export { diffTools } from './diff-tools.js';
export type { ToolChange, ToolDiff } from './diff-tools.js';
export { checkToolPins } from './check-tool-pins.js';
export type { ToolPinCheck } from './check-tool-pins.js';
export { rememberMcpServer, upgradeMcpTrustEntry, forgetMcpServer } from './remember-mcp-server.js';
export { TrustStoreError, TrustStoreErrorCode, LockedFileError } from './errors.js';
export type { LockedFileErrorCode } from './errors.js';
