// Public entry of @garuda/mcp-transport: named re-exports only; anything not listed is internal.
export { buildSandbox, type SandboxedCommand } from './build-sandbox.js';
export {
  clearSandboxCache,
  detectSandbox,
  type DetectSandboxOptions,
  type SandboxInfo,
  type SandboxKind,
} from './detect-sandbox.js';
export {
  TransportOptionsError,
  InvalidPolicyError,
  MessageTooLargeError,
  ProcessExitedError,
  ResponseTooLargeError,
  SpawnFailedError,
  TransportClosedError,
  TransportError,
  TransportErrorCode,
  UnprotectablePathError,
} from './errors.js';
export type { MessageKind } from './errors.js';
export { HIDDEN_HOME_PATHS, HIDDEN_SYSTEM_PATHS } from './hidden-paths.js';
export { hiddenPathOf, type HiddenPathMatch } from './hidden-path-of.js';
export { SANDBOX_ENV_ALLOWLIST, WINDOWS_ENV_ALLOWLIST, sandboxEnv } from './sandbox-env.js';
export type { SandboxPolicy } from './sandbox-policy.js';
export {
  ProcessTransport,
  type ProcessExit,
  type ProcessTransportOptions,
} from './process-transport.js';
export { createCappedFetch } from './capped-fetch.js';
export { createHttpTransport, type HttpTransportOptions } from './http-transport.js';
export { LIMITS } from './limits.js';
