import { groupDigits } from '@garuda/internal';
// The user's permission rules for MCP tool calls: `mcp.<server>.<tool>` with `*` globs, in three
// lists. A call a deny rule matches never runs; one an ask rule matches always asks (no mode, no
// remembered grant and no allow rule skips the question); one an allow rule matches runs without
// asking, unless its server is destructive. The one place rules are parsed and matched.
import { cleanLine } from '@garuda/mcp-sanitize';
import { revealText } from './reveal-text.js';
import { matchesToolPattern } from '../offer/tool-control.js';

/** What every rule for MCP tools starts with. */
export const RULE_PREFIX = 'mcp.';

/** The longest rule: the prefix, a server name, a dot and a 1 000-character tool name. */
export const MAX_RULE_CHARS = 1_100;

/** What a rule decides, from the strongest: deny > ask > allow. */
export type RuleDecision = 'deny' | 'ask' | 'allow';

/** The user's rules, one list per decision. @internal */
export interface ToolRules {
  readonly allow: readonly string[];
  readonly ask: readonly string[];
  readonly deny: readonly string[];
}

// Server names as the config allows them (they never contain a dot), with `*` for any run.
const SERVER_PATTERN = /^[a-z0-9_*-]{1,32}$/;
const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const FORMS =
  'write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)';

interface ParsedRule {
  readonly server: string;
  readonly tool: string;
}

/** The rule's meaning, or its problem as a string. */
function parseRule(rule: unknown): ParsedRule | string {
  if (typeof rule !== 'string') return `a rule must be a string (${FORMS})`;
  if (rule === '') return `the rule is empty: ${FORMS}`;
  const shown = revealText(rule);
  if (rule.length > MAX_RULE_CHARS) {
    return `${shown} is longer than ${groupDigits(MAX_RULE_CHARS)} characters`;
  }
  // Also refuses tabs, line breaks, Unicode spaces and runs of spaces; a single space may stay
  // (a tool may be named "read file").
  if (cleanLine(rule) !== rule) {
    return `${shown} contains line breaks, tabs, invisible characters or extra spaces`;
  }
  if (!rule.startsWith(RULE_PREFIX)) return `${shown} does not start with "mcp.": ${FORMS}`;
  const rest = rule.slice(RULE_PREFIX.length);
  if (rest === '*') return { server: '*', tool: '*' };
  // Server names have no dot, so the first dot ends the server; the tool is everything after it
  // (tool names may contain dots, and those stay inside the tool segment).
  const dot = rest.indexOf('.');
  const server = dot < 0 ? rest : rest.slice(0, dot);
  const glob = server.includes('*');
  if (glob ? !SERVER_PATTERN.test(server) : !SERVER_NAME.test(server)) {
    return `${shown}: ${revealText(server)} is not a server name (a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit; * for any run)`;
  }
  if (dot < 0) {
    return `${shown} names no tool: use "mcp.${server}.*" for every tool of ${server}, or "mcp.${server}.<tool>"`;
  }
  const tool = rest.slice(dot + 1);
  if (tool === '') return `${shown} names no tool after the server: ${FORMS}`;
  return { server, tool };
}

/**
 * Checks one rule, for a CLI or a settings check that wants to tell the user.
 *
 * Rules: `mcp.<server>.<tool>`, where the tool is named as the server lists it (it may contain
 * dots) and `*` in either part stands for any run of characters (`mcp.github.*`,
 * `mcp.*.read_*`, `mcp.git*.status`); `mcp.*` is every MCP tool. Case-sensitive. No control,
 * invisible or line-break characters.
 *
 * @param rule - The rule as written.
 * @returns The problem in one line, or `undefined` when the rule is valid.
 * @example
 * ```ts
 * validateToolRule('mcp.github.list_*'); // undefined
 * validateToolRule('mcp.github');        // '"mcp.github" names no tool: use "mcp.github.*" …'
 * ```
 */
export function validateToolRule(rule: string): string | undefined {
  const parsed = parseRule(rule);
  return typeof parsed === 'string' ? parsed : undefined;
}

function matchesRule(rule: unknown, server: string, tool: string): boolean {
  const parsed = parseRule(rule);
  if (typeof parsed === 'string') return false;
  return matchesToolPattern(parsed.server, server) && matchesToolPattern(parsed.tool, tool);
}

/**
 * The first rule of `rules` that covers a call, or `undefined`. Each part matches whole (no
 * prefixes: `mcp.git.*` does not cover server `github`, and `mcp.git.push` does not cover tool
 * `push.force`), case-sensitively; invalid rules are ignored (check them with
 * {@link validateToolRule}).
 *
 * @param rules - E.g. `["mcp.github.search_issues", "mcp.docs.*"]`.
 * @param server - The server name.
 * @param tool - The tool's MCP name as the server lists it.
 */
export function matchingRule(
  rules: readonly string[],
  server: string,
  tool: string,
): string | undefined {
  if (!Array.isArray(rules)) return undefined;
  return (rules as readonly unknown[]).find((rule) => matchesRule(rule, server, tool)) as
    string | undefined;
}

/**
 * What the user's rules decide for one call: the strongest decision among the rules that cover
 * it (deny > ask > allow), and the rule. @internal
 */
export function ruleFor(rules: ToolRules, server: string, tool: string): RuleMatch | undefined {
  // A manager's rules never change: each tool's answer is worked out once, not on every call.
  let known = decided.get(rules);
  if (known === undefined) {
    known = new Map();
    decided.set(rules, known);
  }
  const key = `${server}\u0000${tool}`;
  if (known.has(key)) return known.get(key);
  let match: RuleMatch | undefined;
  for (const decision of ['deny', 'ask', 'allow'] as const) {
    const rule = matchingRule(rules[decision], server, tool);
    if (rule !== undefined) {
      match = { decision, rule };
      break;
    }
  }
  if (known.size >= MAX_DECIDED) known.clear();
  known.set(key, match);
  return match;
}

/** A rule that covers a call, and what it decides. @internal */
export interface RuleMatch {
  readonly decision: RuleDecision;
  readonly rule: string;
}

/** The answers of {@link ruleFor}, per rule set (a rule set is one manager's, fixed). */
const decided = new WeakMap<ToolRules, Map<string, RuleMatch | undefined>>();

/** The most answers kept per rule set (a server lists at most a few hundred tools). */
const MAX_DECIDED = 10_000;

/**
 * The notices about rules that are not usable (each is ignored). @internal
 *
 * @param rules - The host's rules.
 * @returns One notice per unusable rule.
 */
export function ruleNotices(rules: ToolRules): string[] {
  return (['deny', 'ask', 'allow'] as const).flatMap((decision) =>
    rules[decision].flatMap((rule) => {
      const problem = validateToolRule(rule);
      return problem === undefined ? [] : [`An MCP ${decision} rule is ignored: ${problem}`];
    }),
  );
}
