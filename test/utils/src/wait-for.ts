import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  /**
   * Give up after this long. Default 60 000 ms: only a safety net for an event that should
   * come, generous so that a busy machine makes a test slower rather than failed, and below the
   * 120 s test timeouts, so a wait that never ends says what it waited for.
   */
  timeoutMs?: number;
  /** Time between checks. Default 20 ms. */
  intervalMs?: number;
  /** Stops waiting early (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Polls `predicate` until it returns a truthy value (or a promise of one) and resolves with it.
 * A predicate that throws is treated as "not yet"; its last error is kept as the `cause` of the
 * timeout error.
 *
 * @returns the first truthy value
 * @throws Error `waitFor: timed out after N ms` when the time is up
 * @example
 * await waitFor(() => !isProcessAlive(pid));
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { timeoutMs = 60_000, intervalMs = 20, signal }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`waitFor: timed out after ${timeoutMs} ms`, { cause: lastError });
    }
    // sleep() rejects with a generic AbortError; throwIfAborted() gives the signal's reason.
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())), undefined, {
      signal,
    }).catch(() => signal?.throwIfAborted());
  }
}
