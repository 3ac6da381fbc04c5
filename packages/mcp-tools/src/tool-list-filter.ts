import { cleanLine } from '@garuda/mcp-sanitize';
import * as z from 'zod';
import { MAX_SKIP_NOTICES } from './adapt-tools.js';
import { quoteText } from './quote-text.js';
import { capLine, isRecord } from '@garuda/internal';

/** The first protocol revision of the 2026 era (revisions compare as strings, as in the SDK). */
const FIRST_MODERN_REVISION = '2026-07-28';

// The MCP `Tool` as the SDK (`@modelcontextprotocol/client` 2.x) checks it, written out here so
// that this package needs no SDK at run time. A test holds it to the SDK's own schema.
const JsonValue: z.ZodType = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.record(z.string(), JsonValue),
    z.array(JsonValue),
  ]),
);

const ToolSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  icons: z
    .array(
      z.object({
        src: z.string(),
        mimeType: z.string().optional(),
        sizes: z.array(z.string()).optional(),
        theme: z.enum(['light', 'dark']).optional(),
      }),
    )
    .optional(),
  description: z.string().optional(),
  inputSchema: z
    .object({
      type: z.literal('object'),
      properties: z.record(z.string(), JsonValue).optional(),
      required: z.array(z.string()).optional(),
    })
    .catchall(z.unknown()),
  outputSchema: z.looseObject({ $schema: z.string().optional() }).optional(),
  annotations: z
    .object({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
  execution: z
    .object({ taskSupport: z.enum(['required', 'optional', 'forbidden']).optional() })
    .optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** Options of {@link filterToolList}. */
export interface FilterToolListOptions {
  /** The server name, to start each notice with `MCP server "x": ` (else `MCP tool list: `). */
  readonly server?: string;
  /**
   * The negotiated protocol revision (`client.getNegotiatedProtocolVersion()`). Until a 2026
   * revision is known (and when this is left out), the 2025-era rules for `outputSchema` apply
   * too.
   */
  readonly protocolVersion?: string;
}

/** One entry that {@link filterToolList} took out of a tool list. */
export interface DroppedTool {
  /** Its position in the list as the server sent it, from 0. */
  readonly index: number;
  /** Why, in plain words, e.g. `its input schema's type is not "object"` (cleaned, one line). */
  readonly problem: string;
}

/** What {@link filterToolList} decided. */
export interface ToolListDecision {
  /**
   * `result` itself when nothing was dropped (or it holds no `tools` list), otherwise a shallow
   * copy whose `tools` are only the kept entries: what to hand on to the SDK.
   */
  readonly result: unknown;
  /** The entries kept, in order; `undefined` when `result` has no `tools` list to judge. */
  readonly kept: readonly unknown[] | undefined;
  /** The entries taken out, in order. */
  readonly dropped: readonly DroppedTool[];
  /**
   * One-line, cleaned notices for the user, one per dropped entry (at most
   * {@link MAX_SKIP_NOTICES}, then one that counts the rest).
   */
  readonly notices: readonly string[];
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The first problem the MCP tool schema reports, in one short line. */
function specProblem(tool: unknown): string | undefined {
  const parsed = ToolSchema.safeParse(tool);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  if (issue === undefined) return 'it does not match the MCP tool schema';
  const at = issue.path.map((segment) => String(segment)).join('.');
  const where = at === '' ? '' : `at ${quoteText(at)}: `;
  return `it does not match the MCP tool schema (${where}${capLine(cleanLine(issue.message), 120)})`;
}

/**
 * Why the SDK would reject one tool of a `tools/list` result, or `undefined`. The MCP `Tool`
 * schema decides (as the SDK's `specTypeSchemas.Tool` has it), plus what the SDK's per-revision
 * wire schemas add: `inputSchema.$schema` must be a string (2026 era), and an `outputSchema`
 * must be `type: "object"` with object `properties` and a string list `required` (2025 era,
 * checked unless the 2026 era was negotiated). Common problems get plain words. @internal
 *
 * @param tool - One entry of the list (untrusted).
 * @param legacy - Whether the 2025-era rules apply too (true until a 2026 revision is known).
 * @returns The problem, e.g. `its input schema's type is not "object"`.
 * @example
 * ```ts
 * wireToolProblem({ name: 'x', inputSchema: { type: 'string' } }, true);
 * // 'its input schema\'s type is not "object"'
 * ```
 */
export function wireToolProblem(tool: unknown, legacy: boolean): string | undefined {
  if (!isRecord(tool)) return 'it is not an object';
  if (typeof tool.name !== 'string') return 'it has no name';
  const input = tool.inputSchema;
  if (!isRecord(input)) return 'its input schema is not an object';
  if (input.type !== 'object') return 'its input schema\'s type is not "object"';
  if (input.$schema !== undefined && typeof input.$schema !== 'string') {
    return 'its input schema\'s "$schema" is not a string';
  }
  const output = tool.outputSchema;
  if (output !== undefined) {
    if (!isRecord(output)) return 'its output schema is not an object';
    if (legacy) {
      if (output.type !== 'object') return 'its output schema\'s type is not "object"';
      if (output.properties !== undefined && !isRecord(output.properties)) {
        return 'its output schema\'s "properties" is not an object';
      }
      if (output.required !== undefined && !isStringList(output.required)) {
        return 'its output schema\'s "required" is not a list of names';
      }
    }
  }
  return specProblem(tool);
}

/**
 * Decides which tools of a `tools/list` result an MCP client can take, so that one malformed
 * tool cannot fail a whole listing.
 *
 * The SDK validates a `tools/list` result strictly (on the 2026 protocol before any schema the
 * caller passes), so a single bad entry makes `client.listTools()` throw and hides every good
 * tool. Given the `result` of such an answer (untrusted JSON), this judges each entry by the
 * MCP `Tool` schema and the SDK's per-revision rules, and returns the result to hand on with
 * only the entries that pass, what was dropped and why, and one notice per dropped entry such
 * as `MCP server "x": tool #8 "malformed" was skipped: its input schema's type is not "object"`.
 * A result without a `tools` list is returned as it is. Never throws. (`adaptTools` then judges
 * the kept tools again, by what a model may be given.)
 *
 * @param result - The `result` of a JSON-RPC answer to `tools/list`, as it came.
 * @param options - `server` (names it in notices), `protocolVersion` (the negotiated revision).
 * @returns The decision: `result`, `kept`, `dropped` and `notices`.
 * @example
 * ```ts
 * const decision = filterToolList(message.result, { server: 'github', protocolVersion });
 * for (const notice of decision.notices) ui.notice(notice);
 * message = { ...message, result: decision.result };
 * ```
 */
export function filterToolList(
  result: unknown,
  options: FilterToolListOptions = {},
): ToolListDecision {
  const tools: unknown = isRecord(result) ? result.tools : undefined;
  if (!isRecord(result) || !Array.isArray(tools)) {
    return { result, kept: undefined, dropped: [], notices: [] };
  }
  const who =
    options.server === undefined ? 'MCP tool list' : `MCP server ${quoteText(options.server)}`;
  const revision = options.protocolVersion;
  const legacy = revision === undefined || revision < FIRST_MODERN_REVISION;
  const kept: unknown[] = [];
  const dropped: DroppedTool[] = [];
  const notices: string[] = [];
  tools.forEach((tool: unknown, index) => {
    let problem: string | undefined;
    let name: unknown;
    try {
      problem = wireToolProblem(tool, legacy);
      name = isRecord(tool) ? tool.name : undefined;
    } catch {
      // Only a value no JSON parser produces (a throwing getter, a proxy) gets here.
      problem = 'it could not be read';
    }
    if (problem === undefined) {
      kept.push(tool);
      return;
    }
    dropped.push({ index, problem });
    if (dropped.length > MAX_SKIP_NOTICES) return;
    const label = typeof name === 'string' ? ` ${quoteText(name)}` : '';
    notices.push(cleanLine(`${who}: tool #${index + 1}${label} was skipped: ${problem}`));
  });
  if (dropped.length === 0) return { result, kept, dropped, notices };
  if (dropped.length > MAX_SKIP_NOTICES) {
    notices.push(
      cleanLine(`${who}: ${dropped.length - MAX_SKIP_NOTICES} more malformed tools were skipped`),
    );
  }
  return { result: { ...result, tools: kept }, kept, dropped, notices };
}
