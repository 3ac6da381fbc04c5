import { groupDigits } from '@garuda/internal';
import type { CallPreview } from './types.js';

/** Options of {@link callPreviewText}: how a host styles its parts (the words stay the same). */
export interface CallPreviewTextOptions {
  /** Styles the question line, e.g. bold in a terminal. Default: unstyled. */
  readonly title?: (text: string) => string;
  /** Styles the field labels (`name`, `hints`, `arguments`), e.g. dim. Default: unstyled. */
  readonly label?: (text: string) => string;
}

const plain = (text: string): string => text;

/**
 * The standard wording of a preview's arguments, as `garuda-mcp` shows them: a JSON-like object
 * with one `"name": value` line per argument (a value's own lines indented under it), a
 * `[… N more arguments not shown]` line when some were left out, and `{}` for none. Arguments that
 * are not a JSON object are shown as they are, followed by a line that says so. It only lays the
 * preview out: everything in it was cleaned and capped by `callPreview`.
 *
 * @param preview - A preview from `callPreview` (its argument fields are enough).
 * @returns Lines separated by `\n`, not indented.
 * @example
 * ```ts
 * previewArgumentsText(callPreview(tool, { query: 'is:open', limit: 5 }));
 * // '{\n  "query": "is:open",\n  "limit": 5\n}'
 * ```
 */
export function previewArgumentsText(
  preview: Pick<CallPreview, 'arguments' | 'omittedArguments' | 'nonObjectArguments'>,
): string {
  if (preview.nonObjectArguments !== undefined) {
    return `${preview.nonObjectArguments.value}\n(not a JSON object: a tool takes named arguments)`;
  }
  const entries = preview.arguments.map(
    (argument) => `  ${JSON.stringify(argument.name)}: ${argument.value.replaceAll('\n', '\n  ')}`,
  );
  const omitted = preview.omittedArguments;
  if (omitted > 0) {
    entries.push(
      `  [… ${groupDigits(omitted)} more argument${omitted === 1 ? '' : 's'} not shown]`,
    );
  }
  return entries.length === 0 ? '{}' : `{\n${entries.join(',\n')}\n}`;
}

/**
 * The standard wording of a whole call preview, as `garuda-mcp` asks it: the question
 * (`Run tool "x" of MCP server "y"?`), the model's name for the tool, the server's hints when it
 * gave some, the arguments ({@link previewArgumentsText}) indented below, and when values were
 * masked a last line such as `masked    2 values that look secret are masked`. For a terminal
 * prompt, a dialog's text or an elicitation message; a host that lays fields out itself reads the
 * preview's fields instead.
 *
 * @param preview - A preview from `callPreview`.
 * @param options - `title` and `label` style those parts (e.g. bold and dim); the words stay.
 * @returns Lines separated by `\n` (no final newline).
 * @example
 * ```ts
 * ui.ask(callPreviewText(callPreview(tool, { query: 'is:open' })));
 * // Run tool "search" of MCP server "github"?
 * //   name      mcp__github__search
 * //   arguments
 * //     {
 * //       "query": "is:open"
 * //     }
 * ```
 */
export function callPreviewText(
  preview: CallPreview,
  options: CallPreviewTextOptions = {},
): string {
  const title = options.title ?? plain;
  const label = options.label ?? plain;
  const lines = [
    title(
      `Run tool ${JSON.stringify(preview.tool)} of MCP server ${JSON.stringify(preview.server)}?`,
    ),
    `  ${label('name     ')} ${preview.name}`,
  ];
  if (preview.hints.length > 0) lines.push(`  ${label('hints    ')} ${preview.hints.join(', ')}`);
  lines.push(`  ${label('arguments')}`);
  for (const text of previewArgumentsText(preview).split('\n')) lines.push(`    ${text}`);
  const masked = preview.masked;
  if (masked > 0) {
    lines.push(
      `  ${label('masked   ')} ${groupDigits(masked)} ${masked === 1 ? 'value that looks secret is' : 'values that look secret are'} masked`,
    );
  }
  return lines.join('\n');
}
