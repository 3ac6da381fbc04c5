// The shapes this package hands out. Everything in them that came from a server has been
// cleaned already (cleanLine for one-line fields, cleanText otherwise).
import type { UrlRefusalCode } from '@garuda/mcp-sanitize';
import type { ResultContent } from './result-content.js';
import type { ToolUi } from './tool-ui.js';

/** A tool as given to the model (from `adaptTools`). */
export interface McpTool {
  /** `mcp__<server>__<tool>`, matching `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** Server name. */
  readonly server: string;
  /** The tool's MCP name, as the server knows it (used for the call). */
  readonly tool: string;
  /** `[From MCP server "x". …]` plus the cleaned description, at most 2 000 characters. */
  readonly description: string;
  /** The cleaned, tag-neutralised input schema (a JSON object, at most 20 000 characters as JSON). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Never true: a server's read-only hint is not trusted. */
  readonly readOnly: false;
  /** The server's hints, cleaned, each marked `(not verified)`. */
  readonly hints: readonly string[];
  /**
   * Its MCP Apps metadata (`_meta.ui`), checked; absent when the server gave none or gave one that
   * is not valid. A tool whose `visibility` leaves out `model` is app-only (see `isAppOnly`).
   */
  readonly ui?: ToolUi;
}

/** A tool call's result as the model reads it (from `formatResult`). */
export interface CallResult {
  /** `<mcp_result server="x" tool="y">…</mcp_result>`: cleaned, tag-neutralised, capped. */
  readonly text: string;
  /** The server's own `isError`. */
  readonly isError: boolean;
  /**
   * The result's content blocks typed, for hosts that render images, audio, links or resources
   * themselves (the model reads `text`); empty when the result had no list of blocks.
   */
  readonly content: readonly ResultContent[];
}

/**
 * A value as a person is shown it in a call preview: cleaned JSON text (every string and key
 * through `cleanText`, tags neutralised), pretty-printed with two spaces when it is an object or
 * an array, capped.
 */
export interface PreviewValue {
  /**
   * The JSON text, e.g. `"is:open"`, `5` or `[\n  "bug"\n]`. A string's line breaks and tabs
   * stay escaped (`\n`), so only an object's or array's own layout spans lines. A secret-looking
   * value is masked, `"••••••" [masked: …]` (see `CallPreview.masked`). When cut, it ends with
   * `capText`'s marker (`[… N more characters cut]`).
   */
  readonly value: string;
  /** Whether `value` was cut to fit the preview's budget. */
  readonly truncated: boolean;
}

/** One top-level argument of a call, as a person is shown it (from `callPreview`). */
export interface PreviewArgument extends PreviewValue {
  /**
   * The argument's name, cleaned to one line, tag-neutralised, at most 200 code points (`…` when
   * cut). Two names that differ only in removed characters each keep their own entry.
   */
  readonly name: string;
}

/** What a person is shown before a tool runs (from `callPreview`); `callPreviewText` words it. */
export interface CallPreview {
  /** Server name. */
  readonly server: string;
  /** The tool's MCP name (cleaned). */
  readonly tool: string;
  /** The name the model used, `mcp__<server>__<tool>`. */
  readonly name: string;
  /** The server's hints, each marked as not verified, e.g. `read-only (not verified)`. */
  readonly hints: readonly string[];
  /**
   * The arguments, one entry per top-level property in the model's order: at most 50, their
   * values at most 4 000 characters together. Empty for no arguments (`{}`), and when the
   * arguments are not a JSON object (then `nonObjectArguments` holds them).
   */
  readonly arguments: readonly PreviewArgument[];
  /** How many top-level arguments are not in `arguments` (past the first 50); 0 when none. */
  readonly omittedArguments: number;
  /**
   * Only when the arguments are not a JSON object — an array, a string, a number, `null`, a
   * `Date`…, none of which a tool call takes: the whole value, capped at 4 000 characters.
   */
  readonly nonObjectArguments?: PreviewValue;
  /**
   * How many values (strings and numbers, at any depth, in `arguments` or `nonObjectArguments`)
   * are masked because they look secret; 0 when none. A masked value is written
   * `"••••••" [masked: looks like a token, 40 characters]`, keeping no character of the secret.
   */
  readonly masked: number;
}

/**
 * Why a URI a server gave is not shown (`checkUrl`'s code for `use: 'show'`, or `NO_URI` when
 * there was none); absent when the shown text is the URI.
 */
export type UriRefusal = UrlRefusalCode | 'NO_URI';

/** A resource a server lists (from `adaptResources`). */
export interface McpResource {
  /** Server name. */
  readonly server: string;
  /**
   * The URI exactly as the server gave it, for `resources/read`. Untrusted and not cleaned:
   * never show it, show `shownUri`.
   */
  readonly uri: string;
  /**
   * The URI as the model and a person read it: the form `checkUrl` shows (`use: 'show'`),
   * tag-neutralised and capped, or a note such as `a URI that is not shown (SCHEME)`.
   */
  readonly shownUri: string;
  /** Why `shownUri` is a note and not the URI; absent when it is the URI. */
  readonly uriRefused?: UriRefusal;
  /** The name, cleaned to one line, tag-neutralised, at most 500 code points. */
  readonly name: string;
  /** The title, cleaned like `name`. */
  readonly title?: string;
  /** The description, cleaned (lines kept), tag-neutralised, at most 2 000 characters. */
  readonly description?: string;
  /** The MIME type the server claims, cleaned like `name` (not checked). */
  readonly mimeType?: string;
  /** The size in bytes the server claims, when it is a non-negative safe integer. */
  readonly size?: number;
}

/** A resource template a server lists (from `adaptResourceTemplates`). */
export interface McpResourceTemplate {
  /** Server name. */
  readonly server: string;
  /** The RFC 6570 URI template exactly as the server gave it, to expand. Never show it. */
  readonly uriTemplate: string;
  /** The template as text (never a link): cleaned to one line, tag-neutralised, at most 500 code points. */
  readonly shownUriTemplate: string;
  /** The name, cleaned to one line, tag-neutralised, at most 500 code points. */
  readonly name: string;
  /** The title, cleaned like `name`. */
  readonly title?: string;
  /** The description, cleaned (lines kept), tag-neutralised, at most 2 000 characters. */
  readonly description?: string;
  /** The MIME type the server claims for what it expands to, cleaned like `name`. */
  readonly mimeType?: string;
}

/** One content of a resource that was read (from `formatResource`), typed for hosts. */
export type ResourceContent = {
  /**
   * The content's URI exactly as the server gave it (empty when it gave none, or one longer than
   * `MAX_RESOURCE_URI_CHARS`). Never show it, show `shownUri`.
   */
  readonly uri: string;
  /** The URI as `checkUrl` shows it, tag-neutralised and capped, or a note (see `McpResource`). */
  readonly shownUri: string;
  /** Why `shownUri` is a note; absent when it is the URI. */
  readonly uriRefused?: UriRefusal;
  /** The MIME type the server claims, cleaned to one line (not checked: render only types you trust). */
  readonly mimeType?: string;
} & (
  | {
      readonly kind: 'text';
      /** The text, cleaned, tag-neutralised and capped at `maxChars`. */
      readonly text: string;
    }
  | {
      readonly kind: 'blob';
      /** The base64 data as the server sent it (checked to be base64, not decoded). */
      readonly blob: string;
      /** The decoded size in bytes. */
      readonly bytes: number;
    }
);

/** A resource that was read, as the model reads it and typed for hosts (from `formatResource`). */
export interface ResourceResult {
  /** `<mcp_resource server="x" uri="…">…</mcp_resource>`: cleaned, tag-neutralised, capped. */
  readonly text: string;
  /** The contents typed, at most `MAX_CONTENT_BLOCKS`; malformed ones are only in `text` (as notes). */
  readonly contents: readonly ResourceContent[];
  /** How many of the result's contents are not in `contents` (malformed, or past the cap). */
  readonly omitted: number;
}

/** A prompt a server lists (from `adaptPrompts`). */
export interface McpPrompt {
  /** Server name. */
  readonly server: string;
  /** The prompt's MCP name, for `prompts/get`: only a name that cleaning would not change is listed. */
  readonly name: string;
  /** The title, cleaned to one line, tag-neutralised, at most 500 code points. */
  readonly title?: string;
  /** The description, cleaned (lines kept), tag-neutralised, at most 2 000 characters. */
  readonly description?: string;
  /** Its arguments, in the server's order (at most `MAX_PROMPT_ARGUMENTS`). */
  readonly arguments: readonly PromptArgument[];
}

/** One argument of a prompt. */
export interface PromptArgument {
  /** The argument's name, for `prompts/get`: one that cleaning would not change. */
  readonly name: string;
  /** The description, cleaned to one line, tag-neutralised, at most 500 code points. */
  readonly description?: string;
  /** The server's `required === true`. */
  readonly required: boolean;
}

/** One message of a prompt, as text (from `formatPrompt`). */
export interface PromptMessage {
  /** `user` or `assistant` as the server said; `other` for any other role, which MCP does not have. */
  readonly role: 'user' | 'assistant' | 'other';
  /** Its content as text (images, audio and resources as notes), cleaned, tag-neutralised, capped. */
  readonly text: string;
  /**
   * Its content typed, as a result's blocks are (see `CallResult.content`), for hosts that render
   * images, audio and resources themselves: cleaned the same way, binary data checked to be
   * base64, URIs through `checkUrl`.
   */
  readonly content: ResultContent;
}

/** A prompt's messages, as the model reads them and as data (from `formatPrompt`). */
export interface PromptResult {
  /**
   * `<mcp_prompt server="x" name="y">`, a line saying the messages are the server's words, then
   * each message as `[user]` or `[assistant]` and its text; cleaned, tag-neutralised, capped.
   */
  readonly text: string;
  /** The messages, at most `MAX_CONTENT_BLOCKS`; malformed ones are only in `text` (as notes). */
  readonly messages: readonly PromptMessage[];
  /** How many of the result's messages are not in `messages` (malformed, or past the cap). */
  readonly omitted: number;
  /** The prompt's description from the result, cleaned (lines kept), at most 2 000 characters. */
  readonly description?: string;
}
