import { createHash } from 'node:crypto';

/** What a tool name given to a model must match (the common limit of model APIs). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest tool name given to a model. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Hex digits of the sha256 that end a shortened name. */
const HASH_CHARS = 8;

const ALLOWED = /[a-zA-Z0-9_-]/;

/**
 * How every tool name of a server starts: `mcp__<server>__`, with each `-` of the server name
 * written `_` (some hosts read `-` as a word break; `_` is what tool names use).
 *
 * @param server - The server name, as configured.
 * @returns E.g. `mcp__sequential_thinking__` for `sequential-thinking`.
 * @example
 * ```ts
 * toolPrefix('my-notes'); // 'mcp__my_notes__'
 * ```
 */
export function toolPrefix(server: string): string {
  let safe = 'mcp__';
  for (const ch of server) safe += ALLOWED.test(ch) && ch !== '-' ? ch : '_';
  return `${safe}__`;
}

/**
 * The name a model sees for an MCP tool: `mcp__<server>__<tool>`, with every character outside
 * `[a-zA-Z0-9_-]` (each code point, so an emoji or a lone surrogate counts once) replaced by
 * `_`. A name longer than 64 characters is cut to 55 and ends with `_` plus the first 8 hex
 * digits of the sha256 of the full name as the server wrote it (before any replacement), so
 * it is at most 64 characters, the same on every run, and two tools that differ anywhere —
 * also after character 64, or only in characters that were replaced — get different names
 * (barring a hash collision, or names that differ only in lone surrogates).
 * Short names that differ only in replaced characters (`a.b`, `a/b`) become the same name:
 * the caller keeps the first and tells the user (see `adaptTools`).
 *
 * @param server - The server name (from the config: `^[a-z0-9][a-z0-9_-]{0,31}$`; a `-` becomes
 *   `_`, so `sequential-thinking` gives `mcp__sequential_thinking__…`).
 * @param tool - The tool's MCP name as the server listed it (untrusted).
 * @returns A name matching {@link TOOL_NAME_PATTERN}.
 * @example
 * ```ts
 * toolName('github', 'search_issues'); // 'mcp__github__search_issues'
 * toolName('files', 'read file/ü');    // 'mcp__files__read_file__'
 * toolName('x', 'a'.repeat(100));      // 'mcp__x__' + 'a'.repeat(47) + '_6066a0e8' (64 characters)
 * ```
 */
export function toolName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool}`;
  let safe = toolPrefix(server);
  for (const ch of tool) safe += ALLOWED.test(ch) ? ch : '_';
  if (safe.length <= MAX_TOOL_NAME_LENGTH) return safe;
  // UTF-8, as most tools would compute it (a lone surrogate hashes as U+FFFD).
  const hash = createHash('sha256').update(full, 'utf8').digest('hex');
  return `${safe.slice(0, MAX_TOOL_NAME_LENGTH - HASH_CHARS - 1)}_${hash.slice(0, HASH_CHARS)}`;
}

/**
 * The name a host sees for a server's prompt: `<server>__<prompt>`, as for tools (without the
 * `mcp__` that hosts put in front themselves).
 *
 * @param server - The server name.
 * @param prompt - The prompt's name as the server listed it (already checked by `adaptPrompts`).
 * @returns E.g. `notes__review`.
 */
export function promptName(server: string, prompt: string): string {
  return `${promptPrefix(server)}${prompt}`;
}

/**
 * How every prompt name of a server starts for a host (see {@link promptName}).
 *
 * @param server - The server name.
 * @returns `<server>__`.
 */
export function promptPrefix(server: string): string {
  return `${server}__`;
}
