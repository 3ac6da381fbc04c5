import type { MessageTooLargeError } from '@garuda/mcp-transport';
import { oneLine } from '../common/text.js';

// Whether a message the transport dropped for its size may have been the answer to a call: a
// response, or a line the transport could not tell (then a call must not wait for it until its
// time limit). The server's own request or notification answers none. Decided from the fields
// the transport read from the whole line, never from its message (which quotes the server).
/** @internal */
export function mayBeAnAnswer(error: MessageTooLargeError): boolean {
  // A copy of the transport without `kind` counts as unknown.
  return error.kind !== 'request' && error.kind !== 'notification';
}

/** What the transport found out about a dropped message, for the debug log. @internal */
export function droppedShape(error: MessageTooLargeError): string {
  const id =
    typeof error.id === 'number'
      ? `, id ${error.id}`
      : typeof error.id === 'string'
        ? `, id ${JSON.stringify(oneLine(error.id, 40))}`
        : '';
  return ` (a ${String(error.kind ?? 'unknown')}${id})`;
}
