// A mode kind (approval modes, exposure modes) is one frozen table, mode → one-line description;
// the lists in option errors are made from it, so no message can name a mode the table lacks.

/**
 * The modes of a table, in the table's order.
 *
 * @param table - Mode → its one-line description.
 * @returns The modes.
 */
export function modesOf<Mode extends string>(table: Readonly<Record<Mode, string>>): Mode[] {
  return Object.keys(table) as Mode[];
}

/**
 * `"a", "b" or "c"`: the modes of a table, JSON-quoted, for an option error's `must be …`.
 *
 * @param table - Mode → its one-line description.
 * @returns The quoted modes joined with commas and a last `or`.
 */
export function quotedModes(table: Readonly<Record<string, string>>): string {
  const quoted = Object.keys(table).map((mode) => JSON.stringify(mode));
  const last = quoted.pop() ?? '';
  return quoted.length === 0 ? last : `${quoted.join(', ')} or ${last}`;
}
