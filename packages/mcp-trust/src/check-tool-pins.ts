import { diffTools, type ToolDiff } from './diff-tools.js';
import { hashTools, toolHashes, type PinnedToolShape } from './hash-tools.js';
import type { McpTrustEntry } from './mcp-trust-entry.js';

/** The result of {@link checkToolPins}. */
export type ToolPinCheck =
  | {
      /** Nothing pinned yet: no entry, or an entry without a `tools` hash. */
      state: 'new';
    }
  | {
      /** The tool list is the one that was trusted. */
      state: 'unchanged';
      /**
       * Present only when the entry should be stored again: it had no `toolHashes`, and this is
       * it with them added (see {@link upgradeMcpTrustEntry}).
       */
      entry?: McpTrustEntry;
    }
  | {
      /** The tool list differs from the one that was trusted. */
      state: 'changed';
      /** Which tools were added, removed or changed. */
      diff: ToolDiff;
      /**
       * `false` when the entry had no `toolHashes`, so the diff cannot tell which tools changed:
       * it then lists every current tool as changed, description and schema alike, and nothing
       * as added or removed.
       */
      detailed: boolean;
    };

/**
 * Compares the tools a server lists now with what was trusted.
 * @param entry - the server's entry (from {@link getMcpTrustEntry}), or `undefined`
 * @param tools - the tools the server lists now
 * @returns `new`, `unchanged` (with an upgraded `entry` to store when the old one had no
 *   `toolHashes`), or `changed` with a diff. When the old entry has no `toolHashes`, the diff
 *   reports every current tool as changed with both flags true and `detailed` is false.
 * @example
 * ```ts
 * const check = checkToolPins(await getMcpTrustEntry(store, key), tools);
 * if (check.state === 'changed') showConsent(check.diff);
 * ```
 */
export function checkToolPins(
  entry: McpTrustEntry | undefined,
  tools: readonly PinnedToolShape[],
): ToolPinCheck {
  if (entry === undefined || typeof entry.tools !== 'string') return { state: 'new' };
  if (hashTools(tools) === entry.tools) {
    if (entry.toolHashes !== undefined) return { state: 'unchanged' };
    return { state: 'unchanged', entry: { ...entry, toolHashes: toolHashes(tools) } };
  }
  if (entry.toolHashes !== undefined) {
    return { state: 'changed', diff: diffTools(entry.toolHashes, tools), detailed: true };
  }
  const changed = Object.keys(toolHashes(tools))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((tool) => ({ tool, description: true, schema: true }));
  return { state: 'changed', diff: { added: [], removed: [], changed }, detailed: false };
}
