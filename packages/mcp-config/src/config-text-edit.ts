import { MCP_CONFIG_SCHEMA_URL } from './json-schema.js';
import { applyEdits, type Edit, type Node } from 'jsonc-parser';
import type { ParsedConfig, ParsedServer } from './parse-config-text.js';

// Edits are computed here from the parse tree rather than with jsonc-parser's `modify`: with
// formatting options, `modify` re-formats the neighbouring entries too, and without them it
// writes the new entry on the line of the previous one. These edits touch only the entry itself
// and the comma before it, so every other byte of the file stays as it was.

interface Layout {
  /** One level of indentation, as the file uses it. */
  readonly unit: string;
  readonly eol: string;
}

function layoutOf(text: string): Layout {
  const indented = /^([ \t]+)["{[\]}]/m.exec(text);
  const unit = indented?.[1];
  return {
    unit: unit !== undefined && unit.length <= 8 && /^( +|\t+)$/.test(unit) ? unit : '  ',
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** The indentation before `offset` when only whitespace precedes it on its line. */
function indentBefore(text: string, offset: number): string | undefined {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start -= 1;
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** JSON for `value` whose first line continues a line indented by `indent`. */
function pretty(value: unknown, indent: string | undefined, layout: Layout): string {
  if (indent === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, layout.unit)
    .split('\n')
    .join(layout.eol + indent);
}

function lastChild(node: Node): Node | undefined {
  const children = node.children ?? [];
  return children[children.length - 1];
}

/** Adds a property to an object node: after its last property, or into an empty one. */
function addProperty(
  text: string,
  object: Node,
  objectIndent: string | undefined,
  key: string,
  value: unknown,
  layout: Layout,
): Edit {
  const last = lastChild(object);
  if (last !== undefined) {
    const indent = indentBefore(text, last.offset);
    const separator = indent === undefined ? ', ' : `,${layout.eol}${indent}`;
    return {
      offset: last.offset + last.length,
      length: 0,
      content: `${separator}${JSON.stringify(key)}: ${pretty(value, indent, layout)}`,
    };
  }
  if (objectIndent === undefined) {
    return {
      offset: object.offset,
      length: object.length,
      content: `{ ${JSON.stringify(key)}: ${JSON.stringify(value)} }`,
    };
  }
  const inner = objectIndent + layout.unit;
  return {
    offset: object.offset,
    length: object.length,
    content:
      `{${layout.eol}${inner}${JSON.stringify(key)}: ${pretty(value, inner, layout)}` +
      `${layout.eol}${objectIndent}}`,
  };
}

/**
 * The text with server `name` set to `entry`: replaced in place when it exists, otherwise added
 * after the last server (creating `"servers"` when needed). `parsed` must be `ok`. @internal
 */
export function setServerInText(
  text: string,
  parsed: ParsedConfig,
  name: string,
  entry: unknown,
): string {
  const layout = layoutOf(text);
  const existing = parsed.servers.find((s) => s.name === name);
  if (existing !== undefined) {
    const indent = indentBefore(text, existing.property.offset);
    return applyEdits(text, [
      {
        offset: existing.node.offset,
        length: existing.node.length,
        content: pretty(entry, indent, layout),
      },
    ]);
  }
  const serversNode = parsed.serversProperty?.children?.[1];
  if (parsed.serversProperty !== undefined && serversNode !== undefined) {
    const indent = indentBefore(text, parsed.serversProperty.offset);
    return applyEdits(text, [addProperty(text, serversNode, indent, name, entry, layout)]);
  }
  const root = parsed.root;
  if (root === undefined) throw new Error('setServerInText: no root object');
  // The root object itself starts a line in any file we would write; treat it as unindented.
  const rootIndent = indentBefore(text, root.offset) === undefined ? undefined : '';
  return applyEdits(text, [
    addProperty(text, root, rootIndent, 'servers', { [name]: entry }, layout),
  ]);
}

/**
 * The text with field `key` of one server's entry set to `value`: the value replaced in place
 * when the field is written (once), otherwise added after the entry's last field. Only that
 * value (or the new field and its comma) changes; every other byte of the entry and the file
 * stays. `server.node` must be an object. @internal
 */
export function setServerFieldInText(
  text: string,
  server: ParsedServer,
  key: string,
  value: unknown,
): string {
  const layout = layoutOf(text);
  if (server.node.type !== 'object') throw new Error('setServerFieldInText: not an object');
  const field = (server.node.children ?? []).find((p) => p.children?.[0]?.value === key);
  const valueNode = field?.children?.[1];
  if (field !== undefined && valueNode !== undefined) {
    return applyEdits(text, [
      {
        offset: valueNode.offset,
        length: valueNode.length,
        content: pretty(value, indentBefore(text, field.offset), layout),
      },
    ]);
  }
  const entryIndent = indentBefore(text, server.property.offset);
  return applyEdits(text, [addProperty(text, server.node, entryIndent, key, value, layout)]);
}

/** A new file holding one server. @internal */
export function newConfigText(name: string, entry: unknown): string {
  // The schema first: an editor then completes and checks the file.
  const file = { $schema: MCP_CONFIG_SCHEMA_URL, servers: { [name]: entry } };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * The text without server `name`, taking one neighbouring comma with it. The server must exist
 * exactly once and `parsed` must be `ok`. @internal
 */
export function removeServerFromText(text: string, parsed: ParsedConfig, name: string): string {
  const serversNode = parsed.serversProperty?.children?.[1];
  const properties = serversNode?.children ?? [];
  const index = properties.findIndex((p) => p.children?.[0]?.value === name);
  const target = properties[index];
  if (serversNode === undefined || target === undefined) {
    throw new Error('removeServerFromText: no such server');
  }
  if (properties.length === 1) {
    return applyEdits(text, [
      { offset: serversNode.offset, length: serversNode.length, content: '{}' },
    ]);
  }
  const next = properties[index + 1];
  if (next !== undefined) {
    // From this entry up to the next one: the next entry moves into this one's place and keeps
    // this one's indentation.
    return applyEdits(text, [
      { offset: target.offset, length: next.offset - target.offset, content: '' },
    ]);
  }
  const previous = properties[index - 1];
  if (previous === undefined) throw new Error('removeServerFromText: inconsistent tree');
  const from = previous.offset + previous.length;
  return applyEdits(text, [
    { offset: from, length: target.offset + target.length - from, content: '' },
  ]);
}
