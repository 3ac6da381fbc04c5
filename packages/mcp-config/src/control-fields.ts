import { modesOf, quotedModes } from '@garuda/internal';
import * as z from 'zod/mini';

// The fields with which a user keeps a server's tools few and its calls safe: which tools are
// offered, how the model reaches them, what the user declares the server can do, and how much of
// a result the model reads. They are the same for local and remote servers.

/** What a user may declare a server can do; the risk tier of its calls follows from them. */
export const TOOL_CAPABILITIES = Object.freeze([
  'read',
  'write',
  'network',
  'shell',
  'irreversible',
  'untrusted_output',
] as const);

/** One of {@link TOOL_CAPABILITIES}. */
export type ToolCapability = (typeof TOOL_CAPABILITIES)[number];

/**
 * How a server's tools reach the model: one of {@link TOOL_EXPOSURES}.
 */
export type ToolExposure = 'direct' | 'search' | 'proxy' | 'auto';

/**
 * The exposure modes, each with its one-line description, in the order documentation lists
 * them: the one place they are described (config and option errors, the CLI's help and usage
 * errors are made from it).
 *
 * @example
 * ```ts
 * for (const [mode, what] of Object.entries(TOOL_EXPOSURES)) show(`${mode}: ${what}`); // your UI
 * ```
 */
export const TOOL_EXPOSURES: Readonly<Record<ToolExposure, string>> = Object.freeze({
  direct: 'every tool, offered at once',
  search: 'held back; the model finds them with mcp_tool_search',
  proxy: 'held back; the model calls them by name with mcp_tool_call',
  auto: 'direct, or search when the catalog is large; never proxy',
});

/** Whether a server's calls run one at a time, or in parallel when they touch different paths. */
export type CallBatching = 'serialized' | 'path_scoped';

/** How much result text the model reads before the rest goes to a spill file (default). */
export const DEFAULT_MAX_RESULT_CHARS = 30_000;

/** The bounds of `maxResultChars`. @internal */
export const MIN_MAX_RESULT_CHARS = 1_000;
/** @internal */
export const MAX_MAX_RESULT_CHARS = 1_000_000;

/** The longest tool name or pattern in `allowTools`, `denyTools` and `directTools`. */
export const MAX_TOOL_PATTERN_CHARS = 200;

/** The most entries in one of those lists. */
export const MAX_TOOL_PATTERNS = 500;

// C0 and C1 controls, and the invisible and bidirectional characters: a pattern is shown to
// people (`tools <server>`), and one that looks like another name would hide the wrong tool.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const PATTERN = /^[^\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]+$/u;

const patternList = z
  .array(z.string().check(z.minLength(1), z.maxLength(MAX_TOOL_PATTERN_CHARS), z.regex(PATTERN)))
  .check(z.maxLength(MAX_TOOL_PATTERNS));

/** The control fields as written, added to both server schemas. @internal */
export const controlFields = {
  allowTools: z.optional(patternList),
  denyTools: z.optional(patternList),
  directTools: z.optional(patternList),
  exposure: z.optional(z.enum(modesOf(TOOL_EXPOSURES) as [ToolExposure, ...ToolExposure[]])),
  capabilities: z.optional(
    z.array(z.enum(TOOL_CAPABILITIES)).check(
      z.minLength(1),
      z.refine((list) => new Set(list).size === list.length),
    ),
  ),
  batching: z.optional(z.enum(['serialized', 'path_scoped'])),
  maxResultChars: z.optional(
    z.number().check(z.int(), z.minimum(MIN_MAX_RESULT_CHARS), z.maximum(MAX_MAX_RESULT_CHARS)),
  ),
};

/** The control fields of a server as written in a file (both kinds take them). */
export interface ControlEntry {
  /**
   * Tool names (as the server lists them) and `*` patterns: only these are offered; the others
   * are hidden and cannot be called. An empty list hides every tool.
   */
  readonly allowTools?: readonly string[];
  /** Names and `*` patterns of tools never offered; a deny wins over an allow. */
  readonly denyTools?: readonly string[];
  /** In `search` exposure: the tools offered from the start, besides the search tool. */
  readonly directTools?: readonly string[];
  /** How its tools reach the model (default: the host's setting, which defaults to `direct`). */
  readonly exposure?: ToolExposure;
  /** What you declare it can do; undeclared counts as high risk, one call at a time. */
  readonly capabilities?: readonly ToolCapability[];
  /** `serialized` (default) or `path_scoped` (only for a server declared `read` and/or `write`). */
  readonly batching?: CallBatching;
  /** The most result characters the model reads (1 000 … 1 000 000; default 30 000). */
  readonly maxResultChars?: number;
}

/**
 * The control fields of a validated definition: as written, with an absent field meaning its
 * default (the manager applies them: no allow list, no deny or direct tools, the host's exposure,
 * undeclared capabilities, `serialized`, {@link DEFAULT_MAX_RESULT_CHARS}), so definitions
 * without them keep their old shape.
 */
export type ControlDef = ControlEntry;

/** What each control field must be, for validation messages. @internal */
export const CONTROL_RULES: Readonly<Record<string, string>> = {
  allowTools: `must be a list of at most ${MAX_TOOL_PATTERNS} tool names or * patterns, like ["read_*", "search"]`,
  'allowTools[]': `must be a tool name or a * pattern: 1 to ${MAX_TOOL_PATTERN_CHARS} characters, no control or invisible characters`,
  denyTools: `must be a list of at most ${MAX_TOOL_PATTERNS} tool names or * patterns, like ["delete_*"]`,
  'denyTools[]': `must be a tool name or a * pattern: 1 to ${MAX_TOOL_PATTERN_CHARS} characters, no control or invisible characters`,
  directTools: `must be a list of at most ${MAX_TOOL_PATTERNS} tool names or * patterns, like ["search"]`,
  'directTools[]': `must be a tool name or a * pattern: 1 to ${MAX_TOOL_PATTERN_CHARS} characters, no control or invisible characters`,
  exposure: `must be ${quotedModes(TOOL_EXPOSURES)}`,
  capabilities: `must be a list of different values out of ${TOOL_CAPABILITIES.map((c) => `"${c}"`).join(', ')}, with at least one (leave it out when you do not know: that counts as high risk)`,
  'capabilities[]': `must be one of ${TOOL_CAPABILITIES.map((c) => `"${c}"`).join(', ')}`,
  batching: 'must be "serialized" or "path_scoped"',
  maxResultChars: `must be a whole number from ${MIN_MAX_RESULT_CHARS} to ${MAX_MAX_RESULT_CHARS}: change it, or remove it to use ${DEFAULT_MAX_RESULT_CHARS}`,
};

/** The control field names, for the "a server takes …" lists. @internal */
export const CONTROL_LIST =
  'allowTools, denyTools, directTools, exposure, capabilities, batching and maxResultChars';

/**
 * The control fields of a parsed entry, copied as written: absent fields stay absent (a reader
 * takes each as its default), so a definition without them equals the one it was before they
 * existed. @internal
 */
export function controlDef(entry: ControlEntry): ControlDef {
  const def: Record<string, unknown> = {};
  for (const key of Object.keys(controlFields) as (keyof ControlEntry)[]) {
    const value = entry[key];
    if (value !== undefined) def[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return def as ControlDef;
}

/** Capabilities under which calls that touch different paths may run side by side. */
const PATH_SCOPED_CAPABILITIES: ReadonlySet<string> = new Set(['read', 'write']);

/**
 * The checks of the control fields beyond their shape: `path_scoped` batching lets a server's
 * calls run side by side when their paths differ, which is only sound for a server declared to
 * read and write files and nothing else (a shell or network call has no path that scopes it).
 * Returns messages for the `batching` field. @internal
 */
export function batchingProblem(raw: Readonly<Record<string, unknown>>): string | undefined {
  if (raw.batching !== 'path_scoped') return undefined;
  const capabilities = raw.capabilities;
  if (!Array.isArray(capabilities) || capabilities.length === 0) {
    return (
      '"batching": "path_scoped" needs "capabilities" declared as ["read"], ["write"] or ' +
      '["read", "write"]: declare them, or remove "batching" to run its calls one at a time'
    );
  }
  const other = capabilities.filter((c) => !PATH_SCOPED_CAPABILITIES.has(String(c)));
  if (other.length === 0) return undefined;
  return (
    '"batching": "path_scoped" is only for a server declared to read and write files, and this ' +
    `one is also declared ${other.map((c) => `"${String(c)}"`).join(', ')}: remove "batching" ` +
    'to run its calls one at a time'
  );
}
