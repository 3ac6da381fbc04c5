import { cleanLine } from '@garuda/mcp-sanitize';
import { groupDigits } from '@garuda/mcp-tools';
import { revealText } from './reveal-text.js';

/** What every allow rule for MCP tools starts with. */
export const ALLOW_RULE_PREFIX = 'mcp.';

/** The longest allow rule: the prefix, a server name, a dot and a 1 000-character tool name. */
export const MAX_ALLOW_RULE_CHARS = 1_100;

/** Server names as the config allows them; they never contain a dot. */
const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const FORMS = 'write mcp.<server>.<tool>, mcp.<server>.* or mcp.*';

type ParsedRule =
  | { readonly all: true }
  | { readonly all: false; readonly server: string; readonly tool: string | undefined };

/** The rule's meaning, or its problem as a string. */
function parseRule(rule: unknown): ParsedRule | string {
  if (typeof rule !== 'string') return `an allow rule must be a string (${FORMS})`;
  if (rule === '') return `the rule is empty: ${FORMS}`;
  const shown = revealText(rule);
  if (rule.length > MAX_ALLOW_RULE_CHARS) {
    return `${shown} is longer than ${groupDigits(MAX_ALLOW_RULE_CHARS)} characters`;
  }
  // Also refuses tabs, line breaks, Unicode spaces and runs of spaces; a single space may stay
  // (a tool may be named "read file").
  if (cleanLine(rule) !== rule) {
    return `${shown} contains line breaks, tabs, invisible characters or extra spaces`;
  }
  if (!rule.startsWith(ALLOW_RULE_PREFIX)) return `${shown} does not start with "mcp.": ${FORMS}`;
  const rest = rule.slice(ALLOW_RULE_PREFIX.length);
  if (rest === '*') return { all: true };
  // Server names have no dot, so the first dot ends the server; the tool is everything after it
  // (tool names may contain dots, and those stay inside the tool segment).
  const dot = rest.indexOf('.');
  const server = dot < 0 ? rest : rest.slice(0, dot);
  if (server === '*') {
    return `${shown}: "*" for the server cannot name a tool; use "mcp.*" for every tool of every server`;
  }
  if (!SERVER_NAME.test(server)) {
    return `${shown}: ${revealText(server)} is not a server name (a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit)`;
  }
  if (dot < 0) {
    return `${shown} names no tool: use "mcp.${server}.*" for every tool of ${server}, or "mcp.${server}.<tool>"`;
  }
  const tool = rest.slice(dot + 1);
  if (tool === '') return `${shown} names no tool after the server: ${FORMS}`;
  if (tool === '*') return { all: false, server, tool: undefined };
  if (tool.includes('*')) {
    return `${shown}: "*" stands only for a whole tool name ("mcp.${server}.*"), not for part of one`;
  }
  return { all: false, server, tool };
}

/**
 * Checks one allow rule, for a CLI or a settings check that wants to tell the user.
 *
 * Rules: `mcp.<server>.<tool>` (one tool, named as the server lists it; it may contain dots),
 * `mcp.<server>.*` (every tool of one server) and `mcp.*` (every MCP tool). Case-sensitive.
 * A `*` stands only for a whole segment. No control, invisible or line-break characters.
 *
 * @param rule - The rule as written.
 * @returns The problem in one line, or `undefined` when the rule is valid.
 * @example
 * ```ts
 * validateAllowRule('mcp.github.*');   // undefined
 * validateAllowRule('mcp.github');     // '"mcp.github" names no tool: use "mcp.github.*" …'
 * validateAllowRule('mcp.git*.push');  // '"mcp.git*.push": "git*" is not a server name …'
 * ```
 */
export function validateAllowRule(rule: string): string | undefined {
  const parsed = parseRule(rule);
  return typeof parsed === 'string' ? parsed : undefined;
}

/**
 * Whether a tool call may run without asking, by the user's allow rules. Segments match
 * exactly (no prefixes: `mcp.git.*` does not cover server `github`, and `mcp.git.push` does
 * not cover tool `push.force`), case-sensitively; invalid rules are ignored (check them with
 * {@link validateAllowRule}).
 *
 * @param rules - The user's rules, e.g. `["mcp.github.search_issues", "mcp.docs.*"]`.
 * @param server - The server name.
 * @param tool - The tool's MCP name as the server lists it.
 * @returns `true` when a valid rule covers the call.
 * @example
 * ```ts
 * matchesAllowRule(['mcp.git.*'], 'git', 'status');    // true
 * matchesAllowRule(['mcp.git.*'], 'github', 'status'); // false
 * ```
 */
export function matchesAllowRule(rules: readonly string[], server: string, tool: string): boolean {
  if (!Array.isArray(rules)) return false;
  for (const rule of rules as readonly unknown[]) {
    const parsed = parseRule(rule);
    if (typeof parsed === 'string') continue;
    if (parsed.all) return true;
    if (parsed.server === server && (parsed.tool === undefined || parsed.tool === tool))
      return true;
  }
  return false;
}
