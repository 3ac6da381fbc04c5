import { InvalidArgumentsError } from '../errors.js';
import { isRecord } from '@garuda/internal';
import type { CallProgress } from '../types.js';

/** Options of {@link McpManager.start} and {@link McpManager.reload}. */
export interface StartOptions {
  /**
   * Cancels the start: consent questions are withdrawn, servers still starting are stopped
   * (state `stopped`), and the promise rejects with `StartCancelledError`.
   */
  readonly signal?: AbortSignal;
  /**
   * `start()` only: start just these servers (by name), e.g. the one server a command needs.
   * The others are listed by `status()` as `stopped` ("not started") and can be started later
   * with `reload(name)`. A name that no file configures throws `UnknownServerError`. Default:
   * every server.
   */
  readonly only?: readonly string[];
}

/** Options of {@link McpManager.call}. */
export interface CallOptions {
  /** Cancels the call (approval question included): it rejects with `CallCancelledError`. */
  readonly signal?: AbortSignal;
  /**
   * Asks the server for progress while the call runs: each report (cleaned, at most one every
   * 100 ms, values that grow) is told to this. It must not throw (a throw is logged). The call's
   * time limit stays as it is.
   */
  readonly onProgress?: (progress: CallProgress) => void;
}

/**
 * A call's arguments: a JSON object, `undefined` or `null` meaning `{}`. @internal
 *
 * @throws {@link InvalidArgumentsError} for anything else.
 */
export function argumentsOf(args: unknown, name: string): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (isRecord(args)) return args;
  throw new InvalidArgumentsError(name, Array.isArray(args) ? 'an array' : `a ${typeof args}`);
}
