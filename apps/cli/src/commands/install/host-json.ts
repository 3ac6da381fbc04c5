// Edits of a host's JSON config file by jsonc-parser offsets: one property's value replaced or
// inserted, every other byte (comments, formatting, trailing commas) kept. Written by hand
// because jsonc-parser's `modify` reformats the object it inserts into.
import { findNodeAtLocation, parse, parseTree, type Node, type ParseError } from 'jsonc-parser';

/**
 * `text` with `"<name>": <value>` in the object under `key` of its root object, every other byte
 * kept: an entry of that name has its value replaced; otherwise the property is inserted after
 * the last one (a trailing comma or comment after it stays where it was), or into an empty
 * object, or `key` is added to the root. Written by hand because jsonc-parser's `modify`
 * reformats the object it inserts into (it moved comments and rewrapped a neighbour's value).
 */
export function withEntry(text: string, key: string, name: string, value: unknown): string {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (root === undefined || root.type !== 'object') throw new Error('not a JSON object');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = /^\t/m.test(text) ? '\t' : '  ';
  const json = JSON.stringify(value);
  const existing = findNodeAtLocation(root, [key, name]);
  if (existing !== undefined) {
    return text.slice(0, existing.offset) + json + text.slice(existing.offset + existing.length);
  }
  const container = findNodeAtLocation(root, [key]);
  if (container !== undefined && container.type === 'object') {
    return insertProperty(text, container, `${JSON.stringify(name)}: ${json}`, eol, unit);
  }
  if (container !== undefined) throw new Error(`"${key}" is not an object`);
  return insertProperty(
    text,
    root,
    `${JSON.stringify(key)}: { ${JSON.stringify(name)}: ${json} }`,
    eol,
    unit,
  );
}

/** The indentation of the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** Inserts `property` into `object` (a node of `text`), as its last property. */
function insertProperty(text: string, object: Node, property: string, eol: string, unit: string) {
  const last = object.children?.at(-1);
  if (last !== undefined) {
    const end = last.offset + last.length;
    return `${text.slice(0, end)},${eol}${indentAt(text, last.offset)}${property}${text.slice(end)}`;
  }
  // An empty object: `{` … `}`.
  const open = object.offset + 1;
  const outer = indentAt(text, object.offset);
  const close = object.offset + object.length - 1;
  return `${text.slice(0, open)}${eol}${outer}${unit}${property}${eol}${outer}${text.slice(close)}`;
}

/**
 * `text` (a JSON host file) with the value of its `key` property rewritten: the properties at
 * `moved` offsets left out, every `name` property given `value`, `name` added last when it was
 * not there; every other property of that object copied as written. Only that value changes:
 * every byte before and after it stays. Comments between the entries of that object are not
 * kept (the backup has them).
 */
export function withServersMoved(
  text: string,
  key: string,
  moved: ReadonlySet<number>,
  name: string,
  value: unknown,
): string {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const list = root === undefined ? undefined : findNodeAtLocation(root, [key]);
  if (list?.type !== 'object') throw new Error(`"${key}" is not an object`);
  const json = JSON.stringify(value);
  const items: string[] = [];
  let placed = false;
  for (const property of list.children ?? []) {
    if (moved.has(property.offset)) continue;
    if (property.children?.[0]?.value === name) {
      items.push(`${JSON.stringify(name)}: ${json}`);
      placed = true;
    } else {
      items.push(text.slice(property.offset, property.offset + property.length));
    }
  }
  if (!placed) items.push(`${JSON.stringify(name)}: ${json}`);
  const old = text.slice(list.offset, list.offset + list.length);
  let replacement: string;
  if (!old.includes('\n')) {
    replacement = `{ ${items.join(', ')} }`;
  } else {
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const outer = indentAt(text, list.offset);
    const first = (list.children ?? [])[0];
    const startsLine =
      first !== undefined &&
      /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', first.offset - 1) + 1, first.offset));
    const unit = /^\t/m.test(text) ? '\t' : '  ';
    const inner = first !== undefined && startsLine ? indentAt(text, first.offset) : outer + unit;
    replacement = `{${eol}${items.map((item) => inner + item).join(`,${eol}`)}${eol}${outer}}`;
  }
  return text.slice(0, list.offset) + replacement + text.slice(list.offset + list.length);
}

/** Whether `after` is `before` with only the named servers of `key` gone and `name` = `value`. */
export function checkJsonMove(
  before: string,
  after: string,
  key: string,
  gone: ReadonlySet<string>,
  name: string,
  value: unknown,
): boolean {
  const errors: ParseError[] = [];
  const a = parse(before, [], { allowTrailingComma: true }) as Record<string, unknown>;
  const b = parse(after, errors, { allowTrailingComma: true }) as Record<string, unknown>;
  if (errors.length > 0 || typeof b !== 'object' || b === null) return false;
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  const rest = (o: Record<string, unknown>) => Object.entries(o).filter(([k]) => k !== key);
  if (!same(rest(a), rest(b))) return false;
  const was = a[key] as Record<string, unknown>;
  const now = b[key] as Record<string, unknown> | undefined;
  if (typeof now !== 'object' || now === null) return false;
  const kept = Object.keys(was).filter((k) => !gone.has(k) && k !== name);
  return (
    same(now[name], value) &&
    Object.keys(now).length === kept.length + 1 &&
    kept.every((k) => same(now[k], was[k]))
  );
}
