export { TrustStore, type TrustStoreOptions } from './trust-store.js';
export type { TrustStoreLike } from './trust-store-like.js';
export { withFileLock, type FileLockOptions, type HeldFileLock } from './file-lock.js';
export {
  LockedJsonFile,
  type LockedJsonFileOptions,
  type LockedJsonFileContent,
  type LockedJsonFileChange,
  type JsonFileCheck,
} from './locked-json-file.js';
export type { TrustStoreLogger } from './logger.js';
export { type StoredValue } from './json-value.js';
export {
  mcpTrustKey,
  mcpTrustPrefix,
  parseMcpTrustKey,
  MCP_TRUST_PREFIX,
  type McpTrustScope,
} from './mcp-trust-key.js';
export { readMcpTrustEntry, getMcpTrustEntry, type McpTrustEntry } from './mcp-trust-entry.js';
export {
  hashTools,
  toolHashes,
  type McpTool,
  type PinnedToolShape,
  type ToolHashes,
} from './hash-tools.js';
export { diffTools, type ToolChange, type ToolDiff } from './diff-tools.js';
export { checkToolPins, type ToolPinCheck } from './check-tool-pins.js';
export { rememberMcpServer, upgradeMcpTrustEntry, forgetMcpServer } from './remember-mcp-server.js';
export {
  MCP_GRANT_PREFIX,
  checkToolGrant,
  forgetToolGrants,
  mcpGrantKey,
  readToolGrants,
  rememberToolGrant,
  schemaHash,
  type ToolGrant,
  type ToolGrantBinding,
  type ToolGrantCheck,
} from './tool-grants.js';
export {
  TrustStoreError,
  TrustStoreErrorCode,
  LockedFileError,
  type LockedFileErrorCode,
} from './errors.js';
export { LIMITS } from './limits.js';
