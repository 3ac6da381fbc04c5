// The one place that decides which `_meta` of a server behind the gateway reaches the host.
//
// `_meta` is how MCP carries protocol-level facts beside a message, and the spec reserves some
// keys for MCP itself: a server's identity (`io.modelcontextprotocol/serverInfo`, stamped on
// every result since the revision after 2026-07-28), the task a message belongs to
// (`io.modelcontextprotocol/related-task`), the request's envelope on 2026-07-28. Passed on as
// they are, a server's reserved keys would speak to the host as if the gateway had said them:
// a server could claim to be the gateway, or tie its result to another host request's task.
// So nothing a server put in `_meta` passes unless a rule here lets it, key by key:
//
// - a key with no rule is dropped (the default: today every result, list item and notification
//   the gateway hands on is rebuilt from the manager's cleaned fields, with no server `_meta`);
// - a rule for an ordinary key (e.g. MCP Apps' `ui` on a tool) returns the value to pass,
//   checked and cleaned, or `undefined` to drop it;
// - a rule for a reserved key must re-stamp it: build the value from what the gateway itself
//   knows (the host's own task id, say), never hand the server's value on as it is;
// - `io.modelcontextprotocol/serverInfo` never passes, whatever the rules say: the gateway's own
//   identity is the one the host sees (the SDK stamps it on every 2026-era result; a 2025 host
//   gets none, as from any 2025 server).
//
// What the host does see is what the gateway stamps itself ({@link stampedMeta}): a tool's MCP
// Apps `ui`, built from the manager's checked fields, and the related task under the host's own
// task id. Both are made here, so this file is the one answer to "what `_meta` can a host get".
//
// Trust never reads `_meta`: the manager decides from the launch configuration and the pinned
// hashes; a server's claimed identity is at most shown.

/** The key of a server's claimed identity in a result's `_meta`. */
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/** The labels that make a `_meta` prefix MCP's own. */
const MCP_LABELS: ReadonlySet<string> = new Set(['modelcontextprotocol', 'mcp']);

/**
 * Whether the spec reserves a `_meta` key for MCP. A key is `prefix/name`, the prefix dot-
 * separated labels. Reserved: a prefix whose second label is `modelcontextprotocol` or `mcp`
 * (2025-11-25 on: `io.modelcontextprotocol/`, `dev.mcp/`, `org.modelcontextprotocol.api/`), and
 * one with such a label anywhere but last (2025-06-18: `modelcontextprotocol.io/`, `mcp.dev/`).
 * `com.example.mcp/` is a vendor's. Labels are compared without case, so a look-alike in other
 * case counts as reserved too.
 *
 * @param key - A `_meta` key.
 * @returns Whether MCP reserves it.
 * @example
 * isReservedMetaKey('io.modelcontextprotocol/serverInfo'); // true
 * isReservedMetaKey('com.example.mcp/x'); // false
 */
export function isReservedMetaKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  if (slash < 0) return false;
  const labels = key.slice(0, slash).toLowerCase().split('.');
  return labels.some(
    (label, index) => MCP_LABELS.has(label) && (index === 1 || index < labels.length - 1),
  );
}

/**
 * What passes of a server's `_meta`: one rule per key, which returns the value the host gets
 * (checked, cleaned or re-stamped) or `undefined` to drop it. Keys without a rule are dropped.
 */
export type MetaRules = Readonly<Record<string, (value: unknown) => unknown>>;

/**
 * The `_meta` the host gets for something a server sent: only keys a rule lets through, each as
 * its rule returns it; never the server's claimed identity.
 *
 * @param meta - The server's `_meta` (untrusted; anything).
 * @param rules - The keys that may pass, and how (default: none).
 * @returns The host's `_meta`, or `undefined` when nothing passes (leave the field out).
 * @example
 * const result = { content, ...metaField(hostMeta(server._meta, { ui: checkedUi })) };
 */
export function hostMeta(
  meta: unknown,
  rules: MetaRules = {},
): Record<string, unknown> | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const passed: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(rules)) {
    if (key === SERVER_INFO_META_KEY || !Object.hasOwn(meta, key)) continue;
    const value = rule((meta as Record<string, unknown>)[key]);
    if (value !== undefined) passed[key] = value;
  }
  return Object.keys(passed).length === 0 ? undefined : passed;
}

/**
 * A result's or an item's `_meta` field: `{ _meta }` to spread into it, or nothing.
 *
 * @param meta - What {@link hostMeta} returned.
 */
export function metaField(meta: Record<string, unknown> | undefined): {
  _meta?: Record<string, unknown>;
} {
  return meta === undefined ? {} : { _meta: meta };
}

/** The key of the task a message belongs to (the tasks extension). */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/**
 * What the gateway itself stamps on what it hands a host, from what it checked, never from a
 * server's `_meta`: a tool's MCP Apps `ui` (built from the manager's checked `McpTool.ui`, its
 * `resourceUri` the gateway's URI of the pinned app) and the task a result belongs to (the id
 * the gateway gave the host). With the SDK's own identity stamp, these are every `_meta` key a
 * host sees from the gateway's offers.
 *
 * @param stamp - `ui`: a tool's app metadata; `relatedTaskId`: the host's id of the task.
 * @returns The host's `_meta`, or `undefined` when there is nothing to stamp.
 * @example
 * stampedMeta({ relatedTaskId: 'task-1' }); // { 'io.modelcontextprotocol/related-task': { taskId: 'task-1' } }
 */
export function stampedMeta(stamp: {
  readonly ui?: { readonly resourceUri?: string; readonly visibility?: readonly string[] };
  readonly relatedTaskId?: string;
}): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {
    ...(stamp.ui === undefined ? {} : { ui: { ...stamp.ui } }),
    ...(stamp.relatedTaskId === undefined
      ? {}
      : { [RELATED_TASK_META_KEY]: { taskId: stamp.relatedTaskId } }),
  };
  return Object.keys(meta).length === 0 ? undefined : meta;
}
