import { isRecord } from '@garuda/internal';
import { canonicalJson, sha256Hex } from './canonical-json.js';

/**
 * The MCP `Tool` shape as far as pinning cares. The SDK's `Tool` type fits; so does odd input
 * from a misbehaving server (the functions below hash what is there instead of throwing).
 */
export interface PinnedToolShape {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
  readonly _meta?: unknown;
}

/** Per-tool pins: tool name → `"<descriptionHash>:<schemaHash>"` (two sha256 hex digests). */
export type ToolHashes = Record<string, string>;

// `_meta` is for the client's plumbing and may change on every listing (timestamps, trace
// ids); pinning it would ask the person again for nothing.
const VOLATILE = '_meta';
const NAME = 'name';
const SCHEMA_FIELDS = ['inputSchema', 'outputSchema'] as const;

// The one part of `_meta` that is pinned: MCP Apps' `ui` (which app a host renders for the tool,
// and whether the model may call it) is part of what the tool is, not plumbing.
const PINNED_META = 'ui';

/** `_meta` as pinned: `{ ui }` when the tool has `_meta.ui`, else nothing. */
function pinnedMeta(meta: unknown): [string, unknown][] {
  if (!isRecord(meta) || meta[PINNED_META] === undefined) return [];
  return [[VOLATILE, { [PINNED_META]: meta[PINNED_META] }]];
}

// What of a tool is pinned: everything but `_meta`, except `_meta.ui`. Not-an-object tools are
// pinned as they are. A tool without `_meta.ui` hashes as it always did, so older pins hold.
function pinnedView(tool: unknown): unknown {
  if (!isRecord(tool)) return tool;
  const view: [string, unknown][] = [];
  for (const key of Object.keys(tool)) if (key !== VOLATILE) view.push([key, tool[key]]);
  view.push(...pinnedMeta(tool[VOLATILE]));
  return Object.fromEntries(view);
}

function nameOf(tool: unknown): string | undefined {
  if (!isRecord(tool)) return undefined;
  const name = tool[NAME];
  return typeof name === 'string' ? name : undefined;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Canonical {
  name: string | undefined;
  tool: unknown;
  text: string;
}

// Tools in a fixed order whatever order the server listed them in: by name, then (for nameless
// tools or repeated names) by their canonical text.
function sortedTools(tools: unknown): Canonical[] {
  const list: readonly unknown[] = Array.isArray(tools) ? tools : [];
  return list
    .map((tool) => ({ name: nameOf(tool), tool, text: canonicalJson(pinnedView(tool)) }))
    .sort((a, b) => byCodeUnit(a.name ?? '', b.name ?? '') || byCodeUnit(a.text, b.text));
}

/**
 * The pin of a whole tool list: sha256 (hex) of the canonical JSON of the list sorted by tool
 * name, each tool without `_meta` but for `_meta.ui` (MCP Apps: the tool's app and visibility). Key order inside a tool or schema and the order of the list
 * change nothing; any other change to any tool, including a field this package does not know,
 * changes the hash.
 * @param tools - the tools a server listed (`listTools().tools`)
 * @returns 64 lowercase hex characters
 * @example
 * ```ts
 * hashTools([{ name: 'a', inputSchema: { type: 'object' } }]) ===
 *   hashTools([{ inputSchema: { type: 'object' }, name: 'a' }]); // true
 * ```
 */
export function hashTools(tools: readonly PinnedToolShape[]): string {
  if (!Array.isArray(tools)) return sha256Hex(`not a list:${canonicalJson(tools)}`);
  return sha256Hex(
    `[${sortedTools(tools)
      .map((t) => t.text)
      .join(',')}]`,
  );
}

/**
 * The two halves of one tool's pin.
 * - description side: `title`, `description`, `annotations`, `_meta.ui`, and every other field
 *   except `name`, `inputSchema`, `outputSchema` and the rest of `_meta` (so a field a later MCP version adds, such
 *   as `icons` or `execution`, is pinned rather than ignored);
 * - schema side: `inputSchema` and `outputSchema`.
 * @internal
 */
export function toolPin(tool: unknown): { description: string; schema: string } {
  const record = isRecord(tool) ? tool : {};
  const description: [string, unknown][] = [];
  for (const key of Object.keys(record)) {
    if (key === NAME || key === VOLATILE || (SCHEMA_FIELDS as readonly string[]).includes(key)) {
      continue;
    }
    description.push([key, record[key]]);
  }
  description.push(...pinnedMeta(record[VOLATILE]));
  const schema = Object.fromEntries(SCHEMA_FIELDS.map((key) => [key, record[key]]));
  return {
    description: sha256Hex(canonicalJson(Object.fromEntries(description))),
    schema: sha256Hex(canonicalJson(schema)),
  };
}

/**
 * Per-tool pins, to tell which tool changed and how when {@link hashTools} differs.
 * The description hash covers `title`, `description`, `annotations`, `_meta.ui` and any field
 * other than `name`, `inputSchema`, `outputSchema` and `_meta`; the schema hash covers `inputSchema` and
 * `outputSchema`. Tools without a string `name` cannot be keyed and are left out (they still
 * count in {@link hashTools}); when a name repeats, the first in {@link hashTools}' order wins.
 * @param tools - the tools a server listed
 * @returns tool name → `"<descriptionHash>:<schemaHash>"`
 */
export function toolHashes(tools: readonly PinnedToolShape[]): ToolHashes {
  const out = new Map<string, string>();
  for (const { name, tool } of sortedTools(tools)) {
    if (name === undefined || out.has(name)) continue;
    const pin = toolPin(tool);
    out.set(name, `${pin.description}:${pin.schema}`);
  }
  // fromEntries defines own properties: a tool named "__proto__" stays an ordinary key.
  return Object.fromEntries(out);
}
