import { kindOf, quote } from '@garuda/internal';
import { invalidValue } from './errors.js';

/**
 * A value the store can hold: what `JSON.parse` returns. Object properties whose value is
 * `undefined` are dropped when stored, as `JSON.stringify` does.
 */
export type StoredValue =
  | null
  | boolean
  | number
  | string
  | readonly StoredValue[]
  | { readonly [key: string]: StoredValue | undefined };

/** How deep a stored value may nest. Deeper values are refused rather than risk the stack. */
export const MAX_VALUE_DEPTH = 100;

/**
 * Checks that `value` survives a JSON round trip unchanged and returns a deep copy of it, so a
 * caller that changes its object after `set()` cannot change what is written.
 * @throws {@link TrustStoreError} `TRUST_INVALID_VALUE` naming where in the value the problem is
 * @internal
 */
export function toStoredValue(value: unknown): StoredValue {
  if (value === undefined) {
    throw invalidValue('the value is undefined (to remove a key, use delete)');
  }
  return copy(value, '$', new Set(), 0);
}

function where(path: string): string {
  return path === '$' ? 'the value' : `at ${path}`;
}

function copy(value: unknown, path: string, ancestors: Set<object>, depth: number): StoredValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) {
        throw invalidValue(`${where(path)} is ${String(value)}, which JSON cannot hold`);
      }
      return value;
    case 'object':
      break;
    default:
      throw invalidValue(`${where(path)} is ${kindOf(value)}`);
  }
  if (value === null) return null;
  if (depth >= MAX_VALUE_DEPTH) {
    throw invalidValue(`${where(path)} nests deeper than ${MAX_VALUE_DEPTH} levels`);
  }
  if (ancestors.has(value)) {
    throw invalidValue(`${where(path)} refers back to itself (a cycle)`);
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: StoredValue[] = [];
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const itemPath = `${path}[${i}]`;
        if (item === undefined) {
          throw invalidValue(`${where(itemPath)} is undefined (JSON would write null)`);
        }
        out.push(copy(item, itemPath, ancestors, depth + 1));
      }
      return out;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      throw invalidValue(
        `${where(path)} is an instance of ${typeof name === 'string' && name ? quote(name, { max: 40 }) : 'a class'}, not a plain object`,
      );
    }
    const entries: [string, StoredValue][] = [];
    for (const key of Object.keys(value)) {
      let item: unknown;
      const itemPath = `${path}[${quote(key, { max: 40 })}]`;
      try {
        item = (value as Record<string, unknown>)[key];
      } catch {
        throw invalidValue(`${where(itemPath)} could not be read (its getter threw)`);
      }
      if (item === undefined) continue;
      entries.push([key, copy(item, itemPath, ancestors, depth + 1)]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays data and never a prototype.
    return Object.fromEntries(entries);
  } finally {
    ancestors.delete(value);
  }
}
