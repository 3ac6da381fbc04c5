import { oneLine } from '../common/text.js';
import type { ServerState } from '../types.js';

/** The longest reason inside a note for the model, in code points. */
const MAX_NOTE_REASON_CHARS = 240;

/**
 * Why a server that is not connected cannot be used, in words for a person or a model. `detail`
 * is the manager's own wording for denied and failed servers (it may quote a server's stderr:
 * it is cleaned and capped again here). @internal
 *
 * @param state - The server's state.
 * @param detail - The recorded reason, if any.
 * @returns A short reason such as `you did not allow it`.
 */
export function unavailableReason(state: ServerState, detail: string | undefined): string {
  const why = detail === undefined ? undefined : oneLine(detail, MAX_NOTE_REASON_CHARS);
  switch (state) {
    case 'disabled':
      return 'it is disabled in the configuration';
    case 'denied':
      return why ?? 'you did not allow it';
    case 'failed':
      return why ?? 'it failed';
    case 'stopped':
      return why ?? 'it was stopped';
    case 'starting':
      return 'it is still starting';
    case 'connected':
      return 'it is connected';
    case 'ready':
      return 'it starts on its first use';
  }
}

/**
 * The note for the model about a server it cannot use. @internal
 *
 * @param server - The server's name (a valid config name, safe to show).
 * @param state - Its state (not `connected`).
 * @param detail - The recorded reason, if any.
 * @returns E.g. `MCP server "fix" is not available (you did not allow it). Do not pretend to use it.`
 */
export function noteFor(server: string, state: ServerState, detail: string | undefined): string {
  return `MCP server "${server}" is not available (${unavailableReason(state, detail)}). Do not pretend to use it.`;
}

/** What the tracker needs of one server. @internal */
export interface NoteSubject {
  readonly name: string;
  readonly state: ServerState;
  readonly detail: string | undefined;
  /** Goes up by one on every change of state (or of its reason). */
  readonly version: number;
}

/**
 * Remembers which state of each server the model has been told about, so each note is given
 * once per state change. @internal
 */
export class NoteTracker {
  readonly #seen = new Map<string, number>();

  /**
   * The notes the model has not seen yet: one per server that is not connected (and not still
   * starting) whose state changed since the last call. A connected server gives no note, but
   * its state counts as seen.
   *
   * @param servers - Every server, in the order notes should come.
   * @returns The new notes.
   */
  take(servers: Iterable<NoteSubject>): string[] {
    const notes: string[] = [];
    for (const server of servers) {
      if (server.state === 'starting') continue;
      if (this.#seen.get(server.name) === server.version) continue;
      this.#seen.set(server.name, server.version);
      if (server.state !== 'connected' && server.state !== 'ready')
        notes.push(noteFor(server.name, server.state, server.detail));
    }
    return notes;
  }

  /** Forgets a server that left the configuration. @param name - Its name. */
  forget(name: string): void {
    this.#seen.delete(name);
  }
}
