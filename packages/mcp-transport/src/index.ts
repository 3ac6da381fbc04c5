// Public entry of @garuda/mcp-transport: named re-exports only; anything not listed is internal.
export { buildSandbox } from './build-sandbox.js';
export { detectSandbox, type SandboxInfo } from './detect-sandbox.js';
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
export { HIDDEN_HOME_PATHS } from './hidden-paths.js';
export { hiddenPathOf } from './hidden-path-of.js';
export type { SandboxPolicy } from './sandbox-policy.js';
export {
  ProcessTransport,
  type ProcessExit,
  type ProcessTransportOptions,
} from './process-transport.js';
export { createHttpTransport, type HttpTransportOptions } from './http-transport.js';
export { LIMITS } from './limits.js';
