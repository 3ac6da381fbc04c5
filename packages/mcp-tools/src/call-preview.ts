import { capLine, JSON_MARKERS } from '@garuda/internal';
import {
  capText,
  cleanJson,
  cleanLine,
  neutralizeTags,
  type JsonValue,
} from '@garuda/mcp-sanitize';
import { looksSecretKey, maskedJsonText } from './mask-secrets.js';
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

type PreviewArguments = Pick<
  CallPreview,
  'arguments' | 'omittedArguments' | 'nonObjectArguments' | 'masked'
>;

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

/** What one value shows: its JSON text and how many values in it were masked. */
interface ValueText {
  readonly text: string;
  readonly masked: number;
}

/**
 * Cleaned JSON as pretty text, secret-looking values masked (before any cap, so a cut can never
 * leave half a secret that no longer looks like one); strings in it were cleaned already, tags
 * are neutralised here.
 */
function jsonText(value: JsonValue, secretName: boolean): ValueText {
  const { text, masked } = maskedJsonText(value, secretName);
  return { text: neutralizeTags(text), masked };
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
    const { text, masked } = jsonText(cleanJson(args, { maxDepth: MAX_PREVIEW_DEPTH }), false);
    return {
      arguments: [],
      omittedArguments: 0,
      nonObjectArguments: capped(text, MAX_PREVIEW_ARGUMENT_CHARS),
      masked,
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
  const names = listed.map(nameOf);
  const texts = names.map((name, i) =>
    i < values.length
      ? jsonText(values[i] ?? null, looksSecretKey(name))
      : jsonText(JSON_MARKERS.tooLarge, false),
  );
  const share = shareOf(
    texts.map(({ text }) => text.length),
    MAX_PREVIEW_ARGUMENT_CHARS,
  );
  return {
    arguments: names.map((name, i): PreviewArgument => ({
      name,
      ...capped(texts[i]?.text ?? '', share),
    })),
    omittedArguments: keys.length - listed.length,
    masked: texts.reduce((sum, { masked }) => sum + masked, 0),
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
 * Secret-looking values are masked after cleaning and before capping, so a screen or a log never
 * shows them: every string and number under a name such as `token`, `password`, `api_key`,
 * `privateKey` or `authorization` (at any depth), and in any other string each part that looks
 * like a secret (a JSON Web Token, the credential after `Bearer` or `Basic`, a token with a
 * known prefix such as `ghp_`, `sk-` or `AKIA`, a PEM private key, the password in
 * `https://user:password@host`, a long random-looking run). A masked value reads
 * `"••••••" [masked: looks like a GitHub token, 40 characters]`: no character of the secret is
 * kept. `masked` counts them.
 *
 * @param tool - The adapted tool (from `adaptTools`).
 * @param args - The arguments the model wants to pass.
 * @returns The preview for `Prompter.approveCall`; `callPreviewText` words it.
 * @example
 * ```ts
 * const preview = callPreview(tool, { query: 'is:open', limit: 5, token: 'ghp_…' });
 * // preview.arguments: [{ name: 'query', value: '"is:open"', truncated: false },
 * //                     { name: 'limit', value: '5', truncated: false },
 * //                     { name: 'token', value: '"••••••" [masked: its name looks secret, 40 characters]', truncated: false }]
 * // preview.masked: 1
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
