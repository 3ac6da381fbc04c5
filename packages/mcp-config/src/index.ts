// Public entry of @garuda/mcp-config: named re-exports only; anything not listed is internal.
export { addServer } from './add-server.js';
export type { AddServerOptions, AddServerResult } from './add-server.js';
export { checkServerUrl } from './check-server-url.js';
export type { UrlProblemCode } from './check-server-url.js';
export { commandLine } from './command-line.js';
export { ConfigProblemCode, formatProblem } from './config-problem.js';
export type { ConfigProblem } from './config-problem.js';
export { defHash } from './def-hash.js';
export { defaultPaths } from './default-paths.js';
export type { DefaultPaths } from './default-paths.js';
export {
  ConfigError,
  ConfigErrorCode,
  FileUnusableError,
  HostFileError,
  InvalidServerError,
  ServerEntryError,
} from './errors.js';
export type { HostFileErrorReason } from './errors.js';
export { expandEnv } from './expand-env.js';
export { LIMITS } from './package-limits.js';
export { loadConfig } from './load-config.js';
export type { LoadConfigOptions, LoadConfigResult } from './load-config.js';
export { removeServer } from './remove-server.js';
export { setServerEnabled } from './set-server-enabled.js';
export type {
  EnvSource,
  LocalServerConfig,
  RemoteServerConfig,
  ResolvedValue,
  ServerConfig,
  ServerDef,
  ServerEntry,
  ServerSource,
} from './server-types.js';
export { HOSTS } from './hosts/index.js';
export { applyHostInstall, planHostInstall } from './host-edit/host-install.js';
export type {
  HostFileServer,
  HostInstallPlan,
  HostMovePlan,
  HostStayReason,
} from './host-edit/host-install.js';
export { IMPORT_CLIENTS, ImportNoteCode } from './import-types.js';
export type {
  ImportableServer,
  ImportClient,
  ImportNote,
  ImportServer,
  ImportSourcesResult,
} from './import-types.js';
export { readImportSources } from './import-sources.js';
export { looksSecretName, looksSecretValue } from './looks-secret.js';
export { secretArguments } from './secret-arguments.js';
export { TOOL_EXPOSURES } from './control-fields.js';
export type { ToolCapability, ToolExposure } from './control-fields.js';
export { MCP_CONFIG_SCHEMA_URL, mcpConfigJsonSchema } from './json-schema.js';
