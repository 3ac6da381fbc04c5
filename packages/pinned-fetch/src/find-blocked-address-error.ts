import { BlockedAddressError } from './errors.js';

// Bounds keep a hostile or cyclic error graph from turning a catch block into a hang.
const MAX_DEPTH = 16;
const MAX_VISITED = 256;

/**
 * Finds the {@link BlockedAddressError} behind an error thrown by a pinned fetch or agent.
 *
 * undici's `fetch` rejects with `TypeError: fetch failed` whose `cause` is the connector's
 * error, and other layers may wrap it again, so this walks `cause` links and the `errors` of an
 * `AggregateError` (breadth first, bounded depth, cycles ignored). Errors from other copies of
 * this package are recognised too.
 *
 * @param error - A caught error (anything).
 * @returns The first blocked-address error found, or `undefined`.
 * @throws Never.
 * @example
 * ```ts
 * try {
 *   await pinnedFetch('http://169.254.169.254/');
 * } catch (e) {
 *   const blocked = findBlockedAddressError(e);
 *   if (blocked) ui.show(blocked.addressClass); // 'metadata'
 *   else throw e;
 * }
 * ```
 */
export function findBlockedAddressError(error: unknown): BlockedAddressError | undefined {
  const seen = new Set<unknown>();
  let level: unknown[] = [error];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const candidate of level) {
      if (typeof candidate !== 'object' || candidate === null || seen.has(candidate)) continue;
      if (seen.size >= MAX_VISITED) return undefined;
      seen.add(candidate);
      if (BlockedAddressError.isInstance(candidate)) return candidate;
      try {
        const { cause, errors } = candidate as { cause?: unknown; errors?: unknown };
        if (cause !== undefined) next.push(cause);
        if (Array.isArray(errors)) next.push(...errors.slice(0, MAX_VISITED));
      } catch {
        // A throwing getter on a foreign error object is not our problem to report.
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * Whether an error was caused by a refused address (see {@link findBlockedAddressError}).
 *
 * @param error - A caught error (anything).
 * @returns `true` when a {@link BlockedAddressError} is anywhere in its `cause` chain.
 * @throws Never.
 * @example
 * ```ts
 * const res = await pinnedFetch(url).catch((e: unknown) => {
 *   if (isBlockedAddressError(e)) return undefined; // not a public address: skip the preview
 *   throw e;
 * });
 * ```
 */
export function isBlockedAddressError(error: unknown): boolean {
  return findBlockedAddressError(error) !== undefined;
}
