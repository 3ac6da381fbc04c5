import {
  JSON_MARKERS,
  capText,
  cleanJson,
  cleanLine,
  neutralizeTags,
  type JsonValue,
} from '@garuda/mcp-sanitize';
import { capLine } from './quote-text.js';
import type { CallPreview, McpTool, PreviewArgument, PreviewValue } from './types.js';

/** The most characters of argument values in a call preview, all values together. */
export const MAX_PREVIEW_ARGUMENT_CHARS = 4_000;

/** The most top-level arguments listed in a call preview; the rest are only counted. */
export const MAX_PREVIEW_ARGUMENTS = 50;

/** The longest server, tool or argument name in a call preview, in code points. */
export const MAX_PREVIEW_NAME_CHARS = 200;

/**
 * The deepest nesting shown inside one argument's value; deeper parts show as
 * `[nested too deeply]` (a person reads a preview: past this, indentation alone would fill it).
 */
export const MAX_PREVIEW_DEPTH = 20;

type PreviewArguments = Pick<CallPreview, 'arguments' | 'omittedArguments' | 'nonObjectArguments'>;

/** One safe line: cleaned, tags neutralised. */
function line(text: string): string {
  return neutralizeTags(cleanLine(text));
}

/** The keys of a plain object, or `undefined` for anything else (or a value that throws). */
function plainKeys(value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    if (Array.isArray(value)) return undefined;
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return undefined;
    return Object.keys(value);
  } catch {
    // A revoked Proxy, or a trap that throws: shown as what cleanJson makes of it.
    return undefined;
  }
}

/** An argument's name: one safe line of at most MAX_PREVIEW_NAME_CHARS, reading only its start. */
function nameOf(key: string): string {
  const head =
    key.length > MAX_PREVIEW_NAME_CHARS * 8 ? key.slice(0, MAX_PREVIEW_NAME_CHARS * 8) : key;
  const name = line(head);
  if (head.length === key.length) return capLine(name, MAX_PREVIEW_NAME_CHARS);
  return `${Array.from(name)
    .slice(0, MAX_PREVIEW_NAME_CHARS - 1)
    .join('')}…`;
}

function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return JSON_MARKERS.unreadable;
  }
}

/** Cleaned JSON as pretty text; strings in it were cleaned already, tags are neutralised here. */
function jsonText(value: JsonValue): string {
  return neutralizeTags(JSON.stringify(value, null, 2));
}

/**
 * The largest cap at which the texts fit `budget` together: short texts stay whole, and the long
 * ones share what is left equally (so one huge argument cannot hide the others). `Infinity` when
 * everything fits.
 */
function shareOf(lengths: readonly number[], budget: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let left = budget;
  for (let i = 0; i < sorted.length; i++) {
    const length = sorted[i] ?? 0;
    const share = Math.floor(left / (sorted.length - i));
    if (length > share) return share;
    left -= length;
  }
  return Number.POSITIVE_INFINITY;
}

function capped(text: string, max: number): PreviewValue {
  return text.length <= max
    ? { value: text, truncated: false }
    : { value: capText(text, max), truncated: true };
}

function previewArguments(args: unknown): PreviewArguments {
  const keys = plainKeys(args);
  if (keys === undefined) {
    return {
      arguments: [],
      omittedArguments: 0,
      nonObjectArguments: capped(
        jsonText(cleanJson(args, { maxDepth: MAX_PREVIEW_DEPTH })),
        MAX_PREVIEW_ARGUMENT_CHARS,
      ),
    };
  }
  const listed = keys.slice(0, MAX_PREVIEW_ARGUMENTS);
  const object = args as object;
  // One array for all listed values, so they share cleanJson's node budget: 50 huge values cost
  // what one does. Its own level is one more.
  const cleaned = cleanJson(
    listed.map((key) => read(object, key)),
    { maxDepth: MAX_PREVIEW_DEPTH + 1 },
  );
  // Past cleanJson's node budget the array ends early, with its marker: the rest say the same.
  const values = Array.isArray(cleaned) ? cleaned : [];
  const texts = listed.map((_, i) =>
    jsonText(i < values.length ? (values[i] ?? null) : JSON_MARKERS.tooLarge),
  );
  const share = shareOf(
    texts.map((text) => text.length),
    MAX_PREVIEW_ARGUMENT_CHARS,
  );
  return {
    arguments: listed.map((key, i): PreviewArgument => ({
      name: nameOf(key),
      ...capped(texts[i] ?? '', share),
    })),
    omittedArguments: keys.length - listed.length,
  };
}

/**
 * What a person is shown before a tool call runs: server, tool, the model's name for it, the
 * server's hints (each marked not verified), and the arguments, one {@link PreviewArgument} per
 * top-level property. Everything in it is cleaned (every string and key through `cleanText`,
 * names through `cleanLine`, tags neutralised), so nothing in it can move the cursor, hide text
 * or reorder it. It is bounded whatever the model sends: at most {@link MAX_PREVIEW_ARGUMENTS}
 * arguments are listed (`omittedArguments` counts the rest), each name has at most
 * {@link MAX_PREVIEW_NAME_CHARS} code points, values nest at most {@link MAX_PREVIEW_DEPTH} deep,
 * and the values have at most {@link MAX_PREVIEW_ARGUMENT_CHARS} characters together: short ones
 * stay whole, long ones share the rest and are marked `truncated`. No arguments (`undefined`) are
 * `{}`; arguments that are not a JSON object come as `nonObjectArguments`. Never throws, whatever
 * the arguments hold (cycles, BigInt, functions, symbols, throwing getters, deep nesting).
 *
 * @param tool - The adapted tool (from `adaptTools`).
 * @param args - The arguments the model wants to pass.
 * @returns The preview for `Prompter.approveCall`; `callPreviewText` words it.
 * @example
 * ```ts
 * const preview = callPreview(tool, { query: 'is:open', limit: 5 });
 * // preview.arguments: [{ name: 'query', value: '"is:open"', truncated: false },
 * //                     { name: 'limit', value: '5', truncated: false }]
 * if (!(await prompter.approveCall(preview, signal))) return;
 * ```
 */
export function callPreview(tool: McpTool, args: unknown): CallPreview {
  return {
    server: capLine(line(tool.server), MAX_PREVIEW_NAME_CHARS),
    tool: capLine(line(tool.tool), MAX_PREVIEW_NAME_CHARS),
    name: tool.name,
    hints: tool.hints.map(line),
    ...previewArguments(args === undefined ? {} : args),
  };
}
