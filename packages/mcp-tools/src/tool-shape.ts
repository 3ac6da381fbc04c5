import { groupDigits, isRecord } from '@garuda/internal';
import { cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';

/** The longest tool name accepted from a server, in UTF-16 code units. */
export const MAX_RAW_TOOL_NAME_CHARS = 1_000;

/**
 * What is wrong with one entry of a server's tool list, judged by the fields the tool adapter
 * needs: an object with a non-empty `name` of at most 1 000 characters that cleaning would not
 * change (no control, invisible or bidi characters, line breaks, runs of spaces or wrapper tags
 * such as `</mcp_result>`: the name is used as it is for the call) and an `inputSchema` object
 * whose `type` is `"object"` (`properties` may be missing). Other fields are not judged
 * here: a missing or odd description or annotation is ignored, not fatal. @internal
 *
 * @param tool - One entry as the server listed it (untrusted).
 * @returns The problem in plain words (`its input schema is not an object`), or `undefined`.
 * @example
 * ```ts
 * toolShapeProblem({ name: 'x', inputSchema: { type: 'string' } });
 * // 'its input schema\'s type is not "object"'
 * ```
 */
export function toolShapeProblem(tool: unknown): string | undefined {
  if (!isRecord(tool)) return 'it is not an object';
  const { name, inputSchema } = tool;
  const problem = rawNameProblem(name);
  if (problem !== undefined) return problem;
  if (!isRecord(inputSchema)) return 'its input schema is not an object';
  if (inputSchema.type !== 'object') return 'its input schema\'s type is not "object"';
  return undefined;
}

/**
 * What is wrong with a name a server gave that is used as it is when talking back to the server
 * (a tool's, a prompt's or a prompt argument's): it must be a non-empty string of at most
 * {@link MAX_RAW_TOOL_NAME_CHARS} characters that cleaning would not change. @internal
 *
 * @param name - The name as the server sent it (untrusted).
 * @returns The problem in plain words (`its name is empty`), or `undefined`.
 * @example
 * ```ts
 * rawNameProblem('read\u202efile'); // 'its name contains control, invisible or bidi characters, …'
 * ```
 */
export function rawNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'it has no name';
  if (name === '') return 'its name is empty';
  if (name.length > MAX_RAW_TOOL_NAME_CHARS) {
    return `its name is longer than ${groupDigits(MAX_RAW_TOOL_NAME_CHARS)} characters`;
  }
  // The name is used as it is, so it must already be what cleaning would leave: a name that
  // hides or fakes text (escapes, bidi or zero-width characters, line breaks, wrapper tags) has
  // no honest use.
  if (neutralizeTags(cleanLine(name)) !== name) {
    return 'its name contains control, invisible or bidi characters, line breaks, extra spaces or wrapper tags';
  }
  return undefined;
}
