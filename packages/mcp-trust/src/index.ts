export { TrustStore, type TrustStoreOptions } from './trust-store.js';
export type { TrustStoreLike } from './trust-store-like.js';
export { withFileLock } from './file-lock.js';
export { LockedJsonFile, type JsonFileCheck } from './locked-json-file.js';
export { mcpTrustKey, parseMcpTrustKey, MCP_TRUST_PREFIX } from './mcp-trust-key.js';
export { readMcpTrustEntry, getMcpTrustEntry, type McpTrustEntry } from './mcp-trust-entry.js';
export { hashTools, toolHashes, type PinnedToolShape } from './hash-tools.js';
export { hashAppContent, type AppContentShape } from './hash-app.js';
export { diffTools, type ToolDiff } from './diff-tools.js';
export { checkToolPins, type ToolPinCheck } from './check-tool-pins.js';
export { rememberMcpServer, upgradeMcpTrustEntry, forgetMcpServer } from './remember-mcp-server.js';
export {
  MCP_GRANT_PREFIX,
  checkToolGrant,
  mcpGrantKey,
  readToolGrants,
  rememberToolGrant,
  type ToolGrantCheck,
} from './tool-grants.js';
export { TrustStoreError, TrustStoreErrorCode, LockedFileError } from './errors.js';
export { LIMITS } from './limits.js';
