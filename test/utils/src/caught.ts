/**
 * What an action threw or rejected with, for a test to look at; fails when it did not throw.
 *
 * @param action - A promise, or a function to call (its result is awaited).
 * @returns The error (or whatever was thrown).
 * @throws An `Error` when the action succeeded.
 * @example
 * const error = await caught(store.get('k'));
 * expect(error).toBeInstanceOf(TrustStoreError);
 */
export async function caught(action: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
}
