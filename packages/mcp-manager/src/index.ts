// Public entry of @garuda/mcp-manager: named re-exports only; anything not listed is internal.
export { McpManager } from './mcp-manager.js';
export type { CallOptions, StartOptions } from './calls/call-options.js';
export type { McpTask, TaskCallResult, TaskRequestOptions, TaskStatus } from './calls/tasks.js';
export type { StartStepEvent } from './launch/download-phase.js';
export { serverHomeOf } from './launch/server-home.js';
export type { McpManagerOptions, StartMode } from './options.js';
export { LIMITS } from './limits.js';
export type { RemoteOptions, RulesOptions, SandboxOptions } from './options.js';
export type { StorageOptions, TimeoutsOptions, ToolsOptions } from './options.js';
export { networkText, sandboxText, valueSourceText } from './status/wording.js';
export { lostNamesText } from './offer/tool-view.js';
export { pinCounts } from './offer/prompt-pins.js';
export type { PinCounts } from './offer/prompt-pins.js';
export type { McpApp } from './offer/app-pins.js';
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
  UnknownTaskError,
  UnknownToolError,
} from './errors.js';
export type { HiddenTool } from './offer/tool-control.js';
export type { CompletionRequest, CompletionResult } from './offer/completion.js';
export { APPROVAL_MODES } from './calls/risk-tier.js';
export { validateToolRule } from './calls/tool-rules.js';
export type {
  ApprovalMode,
  CallApprovalRequest,
  CallApprovalReply,
  CallProgress,
  ConsentAnswer,
  ConsentRequest,
  ElicitField,
  ElicitFormRequest,
  ElicitReply,
  ElicitRequest,
  ElicitUrlRequest,
  ElicitValue,
  ElicitValues,
  ManagerCallResult,
  PackageSummary,
  Prompter,
  ServerChange,
  ServerLogEntry,
  ServerLogLevel,
  SignInRequest,
  StatusRow,
  ToolSummary,
} from './types.js';
