// Public entry of @garuda/mcp-manager: named re-exports only; anything not listed is internal.
export { McpManager } from './mcp-manager.js';
export type { CallOptions, StartOptions } from './calls/call-options.js';
export { DEFAULT_DOWNLOAD_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS } from './options.js';
export type { StartStep, StartStepEvent } from './launch/download-phase.js';
export { serverHomeOf } from './launch/server-home.js';
export type { McpManagerOptions, StartMode } from './options.js';
export type { RemoteOptions, RulesOptions, SandboxOptions } from './options.js';
export type { StorageOptions, TimeoutsOptions, ToolsOptions } from './options.js';
export { networkText, sandboxText, valueSourceText } from './status/wording.js';
export { lostNamesText } from './offer/tool-view.js';
export { pinCounts } from './offer/prompt-pins.js';
export type { PinCounts } from './offer/prompt-pins.js';
export { MAX_SERVER_LOGS_PER_SECOND, PROGRESS_INTERVAL_MS } from './start/server-messages.js';
export { MAX_ELICIT_FIELDS } from './elicit/elicit-form.js';
export { ELICIT_TIMEOUT_MS } from './elicit/elicitation.js';
export { DEFAULT_ELICIT_PER_CALL, DEFAULT_ELICIT_PER_MINUTE } from './elicit/elicit-budget.js';
export { DEFAULT_GIVE_WAY_MS } from './abort.js';
export {
  MAX_SUBSCRIPTIONS_PER_SERVER,
  RESOURCE_UPDATE_INTERVAL_MS,
} from './offer/resource-subscriptions.js';
export {
  AlreadyStartedError,
  CallCancelledError,
  CallDeclinedError,
  CallFailedError,
  CallTimeoutError,
  InvalidArgumentsError,
  InvalidOptionsError,
  ManagerClosedError,
  McpManagerError,
  McpManagerErrorCode,
  NotStartedError,
  ResultTooLargeError,
  ServerNotConnectedError,
  ServerStoppedError,
  SignInRequiredError,
  StartCancelledError,
  UnknownServerError,
  ToolHiddenError,
  UnknownToolError,
} from './errors.js';
export type { SignInRequiredDetails } from './errors.js';
export type { HiddenReason, HiddenTool, ToolToggleResult } from './offer/tool-control.js';
export { APPROVAL_MODES } from './calls/risk-tier.js';
export { MAX_CALL_PATHS } from './calls/call-lanes.js';
export { validateToolRule } from './calls/tool-rules.js';
export { AUTO_SEARCH_MIN_TOOLS, HOST_TOOL_SERVER } from './offer/tool-exposure.js';
export type { ExposureMode } from './offer/tool-exposure.js';
export { SPILL_MAX_AGE_MS, SPILL_MAX_BYTES, SPILL_MAX_FILES } from './calls/result-spill.js';
export type {
  ApprovalMode,
  CallApproval,
  CallApprovalRequest,
  CallApprovalReply,
  RiskSummary,
  RiskTier,
  CallProgress,
  CallResult,
  ConsentAnswer,
  ConsentReply,
  ConsentRequest,
  ElicitField,
  ElicitFieldKind,
  ElicitFormRequest,
  ElicitOption,
  ElicitReply,
  ElicitRequest,
  ElicitUrlRequest,
  ElicitValue,
  ElicitValues,
  LostName,
  ManagerLogger,
  NetworkStatus,
  PackageSummary,
  Prompter,
  SandboxStatus,
  ServerChange,
  ServerLogEntry,
  ServerLogLevel,
  ServerSource,
  ServerState,
  SignInReason,
  SignInRequest,
  StatusRow,
  ToolChangeSummary,
  ToolSummary,
  ValueOrigin,
  ValueSource,
} from './types.js';
