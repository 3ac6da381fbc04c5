import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import type { FieldPath } from './field-path.js';
import { createLineIndex, type Position } from './line-index.js';
import { tooDeepAt } from './json-depth.js';
import { MAX_JSON_DEPTH, MAX_SYNTAX_ERRORS } from './limits.js';
import { quoteText, shortText } from './quote-text.js';

/** A key written twice in one object of a server: where, and both places. @internal */
export interface DuplicateField {
  readonly path: FieldPath;
  readonly first: number;
  readonly again: number;
}

/** The key of the server list: ours, and the one most other MCP clients write. */
const SERVERS_KEYS: readonly string[] = ['servers', 'mcpServers'];

/** One entry of `servers`, in file order. @internal */
export interface ParsedServer {
  readonly name: string;
  /** The `"name": value` property node. */
  readonly property: Node;
  /** The value node. */
  readonly node: Node;
  /** The value as plain JSON data (first occurrence wins for duplicate keys). */
  readonly value: unknown;
  /** Keys written twice anywhere inside this server. */
  readonly duplicates: readonly DuplicateField[];
}

/** A configuration text taken apart. @internal */
export interface ParsedConfig {
  /** False when the file as a whole is unusable (syntax, depth, shape): it yields no servers. */
  readonly ok: boolean;
  /** Every server name written in the file, also when `ok` is false (best effort). */
  readonly names: readonly string[];
  /** Servers whose name is written once, in file order (empty when `ok` is false). */
  readonly servers: readonly ParsedServer[];
  /** Names written more than once (already reported, left out of `servers`). */
  readonly duplicateNames: readonly string[];
  /** File-level problems, with line and column where there is a place. */
  readonly problems: readonly ConfigProblem[];
  readonly root: Node | undefined;
  /** The `"servers": {…}` property node, when there is exactly one and its value is an object. */
  readonly serversProperty: Node | undefined;
  readonly position: (offset: number) => Position;
}

const PARSE_OPTIONS = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
};

const SYNTAX_DESCRIPTIONS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected text',
  InvalidNumberFormat: 'a number is written wrongly',
  PropertyNameExpected: 'a property name in double quotes was expected (a trailing comma?)',
  ValueExpected: 'a value was expected (a trailing comma or a missing value?)',
  ColonExpected: 'a ":" was expected',
  CommaExpected: 'a "," was expected',
  CloseBraceExpected: 'a "}" was expected',
  CloseBracketExpected: 'a "]" was expected',
  EndOfFileExpected: 'the file should end after the top-level value',
  InvalidCommentToken: 'comments are not allowed in this file',
  UnexpectedEndOfComment: 'comments are not allowed in this file',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut off',
  InvalidUnicode: 'a \\u escape is invalid',
  InvalidEscapeCharacter: 'a backslash escape is invalid',
  InvalidCharacter: 'a control character (such as a tab or line break) is inside a string',
};

function describeType(node: Node): string {
  return node.type === 'array'
    ? 'an array'
    : node.type === 'null'
      ? 'null'
      : node.type === 'object'
        ? 'an object'
        : `a ${node.type}`;
}

/** Key and value of a property node (both exist in a tree without syntax errors). */
function propertyParts(property: Node): [key: string, value: Node] | undefined {
  const key = property.children?.[0];
  const value = property.children?.[1];
  if (key === undefined || value === undefined || typeof key.value !== 'string') return undefined;
  return [key.value, value];
}

/**
 * The properties of an object node in file order, each key once: a key written again goes to
 * `onRepeat`, with the offset of its first property, and is skipped.
 */
function* firstProperties(
  node: Node,
  onRepeat: (key: string, first: number, property: Node) => void,
): Generator<[key: string, value: Node, property: Node]> {
  const seen = new Map<string, number>();
  for (const property of node.children ?? []) {
    const parts = propertyParts(property);
    if (parts === undefined) continue;
    const [key, value] = parts;
    const first = seen.get(key);
    if (first !== undefined) {
      onRepeat(key, first, property);
      continue;
    }
    seen.set(key, property.offset);
    yield [key, value, property];
  }
}

/**
 * Converts a node to plain data. Keys become own data properties (defineProperty), so a
 * `__proto__` key is an ordinary, visible key rather than a prototype. Duplicate keys keep the
 * first value and are recorded. Depth is bounded by the check before parsing.
 */
function toValue(node: Node, path: FieldPath, duplicates: DuplicateField[]): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = firstProperties(node, (key, first, property) =>
        duplicates.push({ path: [...path, key], first, again: property.offset }),
      );
      for (const [key, value] of properties) {
        Object.defineProperty(out, key, {
          value: toValue(value, [...path, key], duplicates),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child, i) => toValue(child, [...path, i], duplicates));
    default:
      return node.value as unknown;
  }
}

/** What a text yields when it has no usable `servers` object. */
const NO_SERVERS = { servers: [], duplicateNames: [], serversProperty: undefined } as const;

/**
 * Takes a configuration text apart: size of nesting, JSON syntax (no comments, no trailing
 * commas), top-level shape, duplicate keys, and each server's data. Never throws.
 * @internal
 */
export function parseConfigText(file: string, text: string): ParsedConfig {
  const position = createLineIndex(text);
  const problems: ConfigProblem[] = [];
  const at = (offset: number): Position => position(offset);
  const parsed = (
    ok: boolean,
    names: readonly string[] = [],
    root?: Node,
    found: Pick<ParsedConfig, 'servers' | 'duplicateNames' | 'serversProperty'> = NO_SERVERS,
  ): ParsedConfig => ({ ok, names, problems, root, position, ...found });
  const failed = (names?: readonly string[], root?: Node): ParsedConfig =>
    parsed(false, names, root);

  if (text.trim() === '') {
    problems.push({
      code: ConfigProblemCode.INVALID_JSON,
      file,
      message: 'is empty: write { "servers": {} } in it, or delete it',
    });
    return failed();
  }

  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    problems.push({
      code: ConfigProblemCode.TOO_DEEP,
      file,
      ...at(deep),
      message:
        `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, far more than a ` +
        'configuration needs: fix the file; no server from this file was loaded',
    });
    return failed();
  }

  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, PARSE_OPTIONS);
  } catch {
    // Not expected after the depth check; a file must never make loading throw.
    problems.push({
      code: ConfigProblemCode.INVALID_JSON,
      file,
      message: 'could not be parsed as JSON: fix the file; no server from this file was loaded',
    });
    return failed();
  }

  if (errors.length > 0) {
    const seenOffsets = new Set<number>();
    for (const error of errors) {
      if (seenOffsets.has(error.offset)) continue;
      seenOffsets.add(error.offset);
      if (seenOffsets.size > MAX_SYNTAX_ERRORS) break;
      const place = at(error.offset);
      const name = printParseErrorCode(error.error);
      problems.push({
        code: ConfigProblemCode.INVALID_JSON,
        file,
        ...place,
        message:
          `is not valid JSON at line ${place.line}, column ${place.column}: ` +
          `${SYNTAX_DESCRIPTIONS[name] ?? 'unexpected text'}. Fix it (JSON allows no comments ` +
          'and no trailing commas); no server from this file was loaded',
      });
    }
    // The parser recovers, so the names written so far are still known: a broken user file
    // must not let a project take over the names of the user's servers.
    return failed(recoveredNames(root), root);
  }

  if (root === undefined || root.type !== 'object') {
    problems.push({
      code: ConfigProblemCode.NOT_AN_OBJECT,
      file,
      ...(root === undefined ? {} : at(root.offset)),
      message:
        `must hold a JSON object like { "servers": { … } }, not ` +
        `${root === undefined ? 'nothing' : describeType(root)}; no server from this file was loaded`,
    });
    return failed([], root);
  }

  // Top level: "$schema" and "servers" (or "mcpServers", as other MCP clients write it);
  // anything else is reported, and the servers still load.
  let serversProperty: Node | undefined;
  let serversTwice = false;
  // A second list of servers loads none of them.
  const duplicateKey = (key: string, property: Node, message: string): void => {
    if (SERVERS_KEYS.includes(key)) serversTwice = true;
    problems.push({
      code: ConfigProblemCode.DUPLICATE_KEY,
      file,
      field: shortText(key),
      ...at(property.offset),
      message,
    });
  };
  const topLevel = firstProperties(root, (key, first, property) => {
    const lines = `lines ${at(first).line} and ${at(property.offset).line}`;
    duplicateKey(
      key,
      property,
      `key ${quoteText(key)} is written twice (${lines}): keep one` +
        (SERVERS_KEYS.includes(key) ? '; no server from this file was loaded' : ''),
    );
  });
  for (const [key, value, property] of topLevel) {
    if (SERVERS_KEYS.includes(key)) {
      if (serversProperty !== undefined) {
        duplicateKey(
          key,
          property,
          'the file has both "servers" and "mcpServers" (the same list, as two clients name ' +
            'it): keep one; no server from this file was loaded',
        );
      }
      serversProperty = property;
    } else if (key === '$schema') {
      if (value.type !== 'string') {
        problems.push({
          code: ConfigProblemCode.INVALID_VALUE,
          file,
          field: '$schema',
          ...at(value.offset),
          message: '"$schema" must be a string (the address of a JSON schema), or left out',
        });
      }
    } else {
      problems.push({
        code: ConfigProblemCode.UNKNOWN_KEY,
        file,
        field: shortText(key),
        ...at(property.offset),
        message:
          `unknown top-level key ${quoteText(key)}: remove it ` +
          '(the file takes "servers" — or "mcpServers" — and, optionally, "$schema")',
      });
    }
  }

  const serversNode = serversProperty?.children?.[1];
  const names = serversNode?.type === 'object' ? objectKeys(serversNode) : [];
  if (serversTwice) return failed(names, root);
  if (serversProperty === undefined || serversNode === undefined) {
    return parsed(true, names, root);
  }
  if (serversNode.type !== 'object') {
    const key = propertyParts(serversProperty)?.[0] ?? 'servers';
    problems.push({
      code: ConfigProblemCode.NOT_AN_OBJECT,
      file,
      field: key,
      ...at(serversNode.offset),
      message:
        `"${key}" must be an object of name: server pairs, like ` +
        `{ "github": { "command": "github-mcp-server" } }, not ${describeType(serversNode)}; ` +
        'no server from this file was loaded',
    });
    return failed(names, root);
  }

  const byName = new Map<string, Node[]>();
  for (const property of serversNode.children ?? []) {
    const parts = propertyParts(property);
    if (parts === undefined) continue;
    const list = byName.get(parts[0]);
    if (list === undefined) byName.set(parts[0], [property]);
    else list.push(property);
  }
  const servers: ParsedServer[] = [];
  const duplicateNames: string[] = [];
  for (const [name, properties] of byName) {
    const [property, again] = properties;
    if (property === undefined) continue;
    if (again !== undefined) {
      duplicateNames.push(name);
      const lines = properties.map((p) => at(p.offset).line).join(', ');
      problems.push({
        code: ConfigProblemCode.DUPLICATE_KEY,
        file,
        server: shortText(name),
        ...at(again.offset),
        message:
          `server ${quoteText(name)} is written ${properties.length} times (lines ${lines}): ` +
          'keep one; none of them was loaded',
      });
      continue;
    }
    const node = property.children?.[1];
    if (node === undefined) continue;
    const duplicates: DuplicateField[] = [];
    const value = toValue(node, [], duplicates);
    servers.push({ name, property, node, value, duplicates });
  }
  // Map iteration follows first insertion, which is file order; sort only to be explicit.
  servers.sort((a, b) => a.property.offset - b.property.offset);
  return parsed(true, names, root, { servers, duplicateNames, serversProperty });
}

function objectKeys(node: Node): string[] {
  const keys: string[] = [];
  for (const property of node.children ?? []) {
    const key = property.children?.[0]?.value;
    if (typeof key === 'string') keys.push(key);
  }
  return keys;
}

function recoveredNames(root: Node | undefined): string[] {
  if (root?.type !== 'object') return [];
  const names: string[] = [];
  for (const property of root.children ?? []) {
    const key = property.children?.[0]?.value;
    const value = property.children?.[1];
    if (typeof key === 'string' && SERVERS_KEYS.includes(key) && value?.type === 'object') {
      names.push(...objectKeys(value));
    }
  }
  return names;
}
