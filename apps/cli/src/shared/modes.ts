// The mode flags (--approval-mode, --exposure) speak from the packages' mode tables: their help
// lines and their usage errors are made from APPROVAL_MODES and TOOL_EXPOSURES, never written out,
// so a mode added there is accepted, listed and described here with no change.
import { usageError } from '../exit-codes.js';

/** Where a flag's help text starts, after `  --flag <x>` and its padding. */
const HELP_INDENT = ' '.repeat(22);

/**
 * `a, b or c`.
 *
 * @param items - The items, in order.
 * @returns Them joined with commas and a last `or`.
 */
export function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/**
 * One line per mode of a table, the modes padded to one width, the default marked.
 *
 * @param table - Mode → its one-line description.
 * @param defaultMode - The mode taken when none is given.
 * @returns The lines, without indentation.
 */
export function modeLines<Mode extends string>(
  table: Readonly<Record<Mode, string>>,
  defaultMode: Mode,
): string[] {
  const width = Math.max(...Object.keys(table).map((mode) => mode.length)) + 2;
  return Object.entries<string>(table).map(
    ([mode, what]) => `${mode.padEnd(width)}${what}${mode === defaultMode ? ' (default)' : ''}`,
  );
}

/**
 * A mode flag's help: its first line, then one line per mode of the table, the default marked.
 *
 * @param first - The flag's first help line (`  --exposure <e>      how tools reach …:`).
 * @param table - Mode → its one-line description.
 * @param defaultMode - The mode the flag takes when it is not given.
 * @returns The help lines.
 */
export function modeHelp<Mode extends string>(
  first: string,
  table: Readonly<Record<Mode, string>>,
  defaultMode: Mode,
): string[] {
  return [first, ...modeLines(table, defaultMode).map((line) => `${HELP_INDENT}${line}`)];
}

/**
 * A mode flag's value, checked against its table.
 *
 * @param flag - The flag, for the message (`--approval-mode`).
 * @param value - What was given.
 * @param table - Mode → its one-line description.
 * @returns The value, as one of the table's modes.
 * @throws A usage error listing every mode with its description, when the value is none of them.
 */
export function checkedMode<Mode extends string>(
  flag: string,
  value: string,
  table: Readonly<Record<Mode, string>>,
): Mode {
  if (Object.hasOwn(table, value)) return value as Mode;
  const modes = Object.entries<string>(table).map(([mode, what]) => `${mode} (${what})`);
  throw usageError(`${flag} must be ${orList(modes)}, not ${JSON.stringify(value)}.`);
}
