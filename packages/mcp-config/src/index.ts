// Public entry of @garuda/mcp-config: named re-exports only; anything not listed is internal.
export { addServer } from './add-server.js';
export type { AddServerOptions, AddServerResult } from './add-server.js';
export type { DroppedField } from './replace-entry.js';
export { checkServerUrl } from './check-server-url.js';
export type { CheckServerUrlResult, UrlProblemCode } from './check-server-url.js';
export { commandLine } from './command-line.js';
export { ConfigProblemCode, formatProblem } from './config-problem.js';
export type { ConfigProblem } from './config-problem.js';
export { defHash } from './def-hash.js';
export { defaultPaths } from './default-paths.js';
export type { DefaultPaths, DefaultPathsOptions } from './default-paths.js';
export {
  ConfigError,
  ConfigErrorCode,
  FileUnusableError,
  HostFileError,
  InvalidServerError,
  ServerEntryError,
} from './errors.js';
export type { HostFileErrorDetails, HostFileErrorReason } from './errors.js';
export { expandEnv, SERVER_HOME_VARIABLE } from './expand-env.js';
export type {
  ExpandEnvOptions,
  ExpandEnvResult,
  ExpandProblem,
  ExpandProblemCode,
} from './expand-env.js';
export { isHttp } from './is-http.js';
export { MAX_CONFIG_BYTES } from './limits.js';
export { loadConfig } from './load-config.js';
export type { LoadConfigOptions, LoadConfigResult } from './load-config.js';
export type { HostServers } from './host-servers.js';
export { removeServer } from './remove-server.js';
export type { RemoveServerOptions, RemoveServerResult } from './remove-server.js';
export { setServerEnabled } from './set-server-enabled.js';
export type { SetServerEnabledOptions, SetServerEnabledResult } from './set-server-enabled.js';
export type {
  EnvSource,
  LocalServerConfig,
  LocalServerDef,
  LocalServerEntry,
  OAuthSettings,
  RemoteServerConfig,
  RemoteServerDef,
  RemoteServerEntry,
  ResolvedValue,
  ServerConfig,
  ServerDef,
  ServerEntry,
  ServerSource,
} from './server-types.js';
export { HOSTS } from './hosts/index.js';
export type { HostId } from './hosts/index.js';
export type { FieldDialect, HostDescriptor, HostFolders, VariableSyntax } from './hosts/host.js';
export { applyHostInstall, planHostInstall } from './host-edit/host-install.js';
export type {
  ApplyHostInstallOptions,
  HostFileServer,
  HostInstallPlan,
  HostInstallResult,
  HostMovePlan,
  HostMovingServer,
  HostServerRemoval,
  HostStayReason,
  PlanHostInstallOptions,
} from './host-edit/host-install.js';
export { IMPORT_CLIENTS, ImportNoteCode } from './import-types.js';
export type {
  ImportableServer,
  ImportClient,
  ImportFile,
  ImportLocationOptions,
  ImportNote,
  ImportServer,
  ImportSourceFile,
  ImportSourcesResult,
  NotImportableServer,
  ReadImportSourcesOptions,
} from './import-types.js';
export { importSourceFiles } from './import-paths.js';
export { readImportSources } from './import-sources.js';
export { parseClientFile } from './parse-client-file.js';
export type { ParsedClientFile } from './parse-client-file.js';
export { MAX_IMPORT_FILE_BYTES } from './read-source-file.js';
export { looksSecretName, looksSecretValue } from './looks-secret.js';
export { secretArguments } from './secret-arguments.js';
export type { SecretArgument } from './secret-arguments.js';
export type { ImportedProjectFile } from './claude-project-file.js';
export {
  DEFAULT_MAX_RESULT_CHARS,
  MAX_TOOL_PATTERNS,
  MAX_TOOL_PATTERN_CHARS,
  TOOL_CAPABILITIES,
  TOOL_EXPOSURES,
} from './control-fields.js';
export type {
  CallBatching,
  ControlDef,
  ControlEntry,
  ToolCapability,
  ToolExposure,
} from './control-fields.js';
export { MCP_CONFIG_SCHEMA_URL, mcpConfigJsonSchema } from './json-schema.js';
