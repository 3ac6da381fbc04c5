import { log } from '@garuda/internal';
import { messageOf, oneLine } from './text.js';
import type { ManagerLogger } from '../types.js';

/**
 * Runs one of the host's callbacks (`onChange`, `onProgress`, `onServerLog`): a throw is logged
 * as `<name> failed: …`, never passed back into the manager or the protocol. @internal
 */
export function tellHost<T>(
  name: string,
  fn: ((value: T) => void) | undefined,
  value: T,
  logger: ManagerLogger | undefined,
): void {
  try {
    fn?.(value);
  } catch (error) {
    log(logger, 'warn', `${name} failed: ${oneLine(messageOf(error))}`);
  }
}
