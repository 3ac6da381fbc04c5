import { createScanner } from 'jsonc-parser';
import { MAX_JSON_DEPTH } from './limits.js';

// Scanner token kinds (jsonc-parser declares them as a const enum, which isolatedModules
// cannot read).
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/**
 * Where a JSON text's nesting first goes deeper than {@link MAX_JSON_DEPTH}, or `undefined`.
 * A linear scan without recursion, run before the parser (which recurses) sees the text; shared
 * by Garuda's own files and other clients' files. @internal
 *
 * @param text - The file's text.
 * @returns The offset of the first bracket too deep, or `undefined`.
 */
export function tooDeepAt(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return scanner.getTokenOffset();
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}
