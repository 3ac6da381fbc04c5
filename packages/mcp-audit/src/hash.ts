// The hashes the log holds in place of text: of a line (the chain), of a call's arguments and of
// its result.
import crypto from 'node:crypto';

/** SHA-256 hex of text (UTF-8). */
export function sha256Text(text: string): string {
  // The one-shot form (Node 20.12+) makes no hash object: this runs twice on every call.
  return ONE_SHOT === undefined
    ? crypto.createHash('sha256').update(text, 'utf8').digest('hex')
    : ONE_SHOT('sha256', text, 'hex');
}

const ONE_SHOT = (
  crypto as {
    hash?: (algorithm: string, data: string, encoding: 'hex') => string;
  }
).hash;

/**
 * SHA-256 hex of a JSON value with object keys sorted, so the same arguments in another key
 * order hash the same. A value JSON cannot hold (a cycle, a BigInt) hashes as its type's name.
 */
export function sha256Json(value: unknown): string {
  const seen = new Set<object>();
  const canon = (v: unknown): unknown => {
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') {
      return `[${typeof v}]`;
    }
    if (typeof v !== 'object' || v === null) return v;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    const out = Array.isArray(v)
      ? v.map(canon)
      : Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
        );
    seen.delete(v);
    return out;
  };
  return sha256Text(JSON.stringify(canon(value)) ?? 'undefined');
}
