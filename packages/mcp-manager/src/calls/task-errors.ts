import { brand } from '@garuda/internal';
import { McpManagerError, McpManagerErrorCode } from '../error-base.js';
import { quoteText } from '../common/text.js';

/** The first part of this package's error markers. */
const SCOPE = 'garuda.mcp-manager';

/**
 * `getTask(id)` or `cancelTask(id)` of an id this manager did not give out (code
 * `MANAGER_UNKNOWN_TASK`), or no longer knows: its server restarted (its tasks went with it), or
 * it was among the oldest when more tasks were kept than the manager keeps. A task id of one
 * server never reaches another.
 *
 * @example
 * ```ts
 * try {
 *   await mcp.getTask(id);
 * } catch (e) {
 *   if (UnknownTaskError.isInstance(e)) startOver();
 * }
 * ```
 */
export class UnknownTaskError extends McpManagerError {
  /** The id that was given (as given). */
  readonly taskId: string;

  /**
   * @param taskId - The id that was given.
   * @param why - Why it is not known, ending the message's first sentence.
   */
  constructor(taskId: string, why: string) {
    super(
      McpManagerErrorCode.UNKNOWN_TASK,
      `There is no task ${quoteText(taskId)} ${why}. Call the tool again to start a new one.`,
    );
    this.taskId = taskId;
  }

  static override readonly isInstance = brand(this, SCOPE, 'UnknownTaskError');
}
