import { printParseErrorCode, visit } from 'jsonc-parser';
import { ImportNoteCode, type ImportNote } from './import-types.js';
import { tooDeepAt } from './json-depth.js';
import { MAX_JSON_DEPTH, MAX_SYNTAX_ERRORS } from './limits.js';
import { defineOwn } from './plain-object.js';

/** A place in a file, 1-based. @internal */
export interface SourcePlace {
  readonly line: number;
  readonly column: number;
}

/** Another client's file taken apart. @internal */
export type ParsedSource =
  | { readonly ok: false; readonly problems: readonly ImportNote[] }
  | {
      readonly ok: true;
      /** The data, with every key an own property (`__proto__` too: it is never a prototype). */
      readonly value: unknown;
      /** Where a key is written (the first time), by its path, for paths up to 4 keys long. */
      readonly placeOf: (path: readonly string[]) => SourcePlace | undefined;
      /** Paths of keys written more than once in their object (each path once). */
      readonly duplicates: readonly (readonly string[])[];
    };

const SYNTAX: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected text',
  InvalidNumberFormat: 'a number is written wrongly',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a ":" was expected',
  CommaExpected: 'a "," was expected',
  CloseBraceExpected: 'a "}" was expected',
  CloseBracketExpected: 'a "]" was expected',
  EndOfFileExpected: 'the file should end after the top-level value',
  InvalidCommentToken: 'a comment, which this file may not have',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut off',
  InvalidUnicode: 'a \\u escape is invalid',
  InvalidEscapeCharacter: 'a backslash escape is invalid',
  InvalidCharacter: 'a control character is inside a string',
};

interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  /** The key of this container in its parent (an index for an array item). */
  readonly key: string | number | undefined;
  /** The key whose value comes next (objects). */
  pending: string | undefined;
}

/**
 * Parses JSON (or, with `jsonc`, JSON with comments and trailing commas, as VS Code, Cursor
 * and Gemini CLI write it) in one streaming pass, after a linear depth check. A key written
 * twice keeps the last value, as those clients' own parsers do, and is recorded. Never throws.
 * @internal
 */
export function parseSourceJson(text: string, jsonc: boolean): ParsedSource {
  const fail = (note: ImportNote): ParsedSource => ({ ok: false, problems: [note] });
  if (text.trim() === '') {
    return fail({ code: ImportNoteCode.INVALID_SYNTAX, message: 'is empty: nothing to import' });
  }
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const before = text.slice(0, deep).split(/\r\n|\r|\n/);
    return fail({
      code: ImportNoteCode.TOO_DEEP,
      line: before.length,
      column: (before[before.length - 1] ?? '').length + 1,
      message: `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep: nothing was imported from it`,
    });
  }

  const errors: ImportNote[] = [];
  const places = new Map<string, SourcePlace>();
  const duplicates: string[][] = [];
  const duplicateKeys = new Set<string>();
  const stack: Frame[] = [];
  let root: unknown;
  let rootSet = false;

  const pathHere = (): (string | number)[] => {
    const out: (string | number)[] = [];
    for (let i = 1; i < stack.length; i++) {
      const key = stack[i]?.key;
      if (key !== undefined) out.push(key);
    }
    return out;
  };
  const attach = (value: unknown): string | number | undefined => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (!rootSet) {
        root = value;
        rootSet = true;
      }
      return undefined;
    }
    if (Array.isArray(top.container)) {
      top.container.push(value);
      return top.container.length - 1;
    }
    const key = top.pending;
    if (key === undefined) return undefined;
    defineOwn(top.container, key, value);
    top.pending = undefined;
    return key;
  };
  const begin = (container: Record<string, unknown> | unknown[]): void => {
    const key = attach(container);
    stack.push({ container, key, pending: undefined });
  };

  try {
    visit(
      text,
      {
        onObjectBegin: () => begin({}),
        onArrayBegin: () => begin([]),
        onObjectEnd: () => void stack.pop(),
        onArrayEnd: () => void stack.pop(),
        onObjectProperty: (property, _offset, _length, startLine, startCharacter) => {
          const top = stack[stack.length - 1];
          if (top === undefined || Array.isArray(top.container)) return;
          top.pending = property;
          if (stack.length > 4 && !Object.hasOwn(top.container, property)) return;
          const path = [...pathHere(), property].map(String);
          const id = JSON.stringify(path);
          if (Object.hasOwn(top.container, property)) {
            if (!duplicateKeys.has(id) && duplicates.length < 1000) {
              duplicateKeys.add(id);
              duplicates.push(path);
            }
          } else if (!places.has(id)) {
            places.set(id, { line: startLine + 1, column: startCharacter + 1 });
          }
        },
        onLiteralValue: (value: unknown) => void attach(value),
        onError: (error, _offset, _length, startLine, startCharacter) => {
          if (errors.length >= MAX_SYNTAX_ERRORS) return;
          const line = startLine + 1;
          const column = startCharacter + 1;
          if (errors.some((e) => e.line === line && e.column === column)) return;
          const what = SYNTAX[printParseErrorCode(error)] ?? 'unexpected text';
          errors.push({
            code: ImportNoteCode.INVALID_SYNTAX,
            line,
            column,
            message:
              `is not valid ${jsonc ? 'JSON with comments' : 'JSON'} at line ${line}, column ` +
              `${column}: ${what}; nothing was imported from it`,
          });
        },
      },
      { disallowComments: !jsonc, allowTrailingComma: jsonc, allowEmptyContent: false },
    );
  } catch {
    // Not expected after the depth check; a file must never make reading throw.
    return fail({
      code: ImportNoteCode.INVALID_SYNTAX,
      message: 'could not be parsed: nothing was imported from it',
    });
  }
  if (errors.length > 0) return { ok: false, problems: errors };
  return {
    ok: true,
    value: root,
    placeOf: (path) => places.get(JSON.stringify(path)),
    duplicates,
  };
}
