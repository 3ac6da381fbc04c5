import { JSON_MARKERS } from '@garuda/internal';
import { cleanLine, cleanText } from './clean-text.js';
import { invalidLimit } from './errors.js';

/** Options of {@link cleanJson}. */
export interface CleanJsonOptions {
  /** Deepest nesting kept; deeper values become a marker. Default 64. */
  readonly maxDepth?: number;
  /** Most values (strings, numbers, objects, … each counting one) copied; the rest is cut with a marker. Default 100 000. */
  readonly maxNodes?: number;
  /**
   * Applied to every string and key after {@link cleanText}, e.g. `(s) => neutralizeTags(s)` for
   * text a model will read.
   */
  readonly mapString?: (text: string) => string;
}

/** A JSON value, as returned by {@link cleanJson}. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

function notJson(what: string): string {
  return `[not JSON: ${cleanLine(what).slice(0, 40)}]`;
}

function checkLimit(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidLimit(`cleanJson ${name}`, value);
  }
  return value;
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Deep-copies a JSON-like value with every string — object keys too — passed through
 * {@link cleanText} (and `mapString`). Cycles, values nested deeper than `maxDepth`, values past
 * `maxNodes`, and anything JSON cannot hold (functions, symbols, bigints, `undefined`, non-finite
 * numbers, class instances, Maps, Dates, …) are replaced by string markers, so the result is
 * always plain JSON. A key such as `__proto__` becomes an ordinary own property and cannot
 * change the copy's prototype. When two keys clean to the same text, the first one wins.
 *
 * @param value - untrusted data, typically parsed from a server's JSON
 * @param options - bounds and an extra string transform
 * @returns a fresh, cleaned, plain-JSON copy
 * @throws {@link SanitizeError} `SANITIZE_INVALID_LIMIT` when a bound is not a non-negative integer
 * @example
 * ```ts
 * cleanJson({ 'na\u200Bme': '\x1b[1mbold\x1b[0m' }); // { name: 'bold' }
 * ```
 */
export function cleanJson(value: unknown, options: CleanJsonOptions = {}): JsonValue {
  const maxDepth = checkLimit('maxDepth', options.maxDepth, 64);
  const maxNodes = checkLimit('maxNodes', options.maxNodes, 100_000);
  const map = options.mapString;
  const str = map ? (s: string) => map(cleanText(s)) : cleanText;
  const ancestors = new Set<object>();
  let nodes = 0;

  const copy = (v: unknown, depth: number): JsonValue => {
    nodes++;
    switch (typeof v) {
      case 'string':
        return str(v);
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? v : notJson(String(v));
      case 'object':
        break;
      default:
        return notJson(typeof v);
    }
    if (v === null) return null;
    if (ancestors.has(v)) return JSON_MARKERS.circular;
    if (depth >= maxDepth) return JSON_MARKERS.tooDeep;
    ancestors.add(v);
    try {
      if (Array.isArray(v)) {
        const out: JsonValue[] = [];
        const len = v.length;
        for (let i = 0; i < len; i++) {
          if (nodes >= maxNodes) {
            out.push(JSON_MARKERS.tooLarge);
            break;
          }
          out.push(copy(read(v, i), depth + 1));
        }
        return out;
      }
      if (!isPlainObject(v)) return notJson(Object.prototype.toString.call(v).slice(8, -1));
      const out: { [key: string]: JsonValue } = {};
      for (const key of Object.keys(v)) {
        if (nodes >= maxNodes) {
          define(out, JSON_MARKERS.cutKey, JSON_MARKERS.tooLarge);
          break;
        }
        const k = str(key);
        if (Object.prototype.hasOwnProperty.call(out, k)) continue;
        define(out, k, copy(read(v, key), depth + 1));
      }
      return out;
    } catch {
      // A throwing getter or Proxy trap: the value cannot be read, say so instead of failing.
      return JSON_MARKERS.unreadable;
    } finally {
      ancestors.delete(v);
    }
  };
  return copy(value, 0);
}

function read(obj: object, key: string | number): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch {
    return JSON_MARKERS.unreadable;
  }
}

function define(obj: object, key: string, value: JsonValue): void {
  // defineProperty, not assignment: assigning to "__proto__" would set the prototype instead.
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
