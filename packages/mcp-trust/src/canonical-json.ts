import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';

const CIRCULAR = '[Circular]';

const stableStringify = configure({
  deterministic: true,
  circularValue: CIRCULAR,
  bigint: true,
});

/**
 * Canonical JSON of `value`: object keys sorted at every depth (UTF-16 code unit order), no
 * whitespace, and what JSON cannot hold handled as `JSON.stringify` does (dropped from objects,
 * `null` in arrays). A cycle becomes the string `"[Circular]"` and a bigint its digits, so odd
 * input never throws. `undefined` at the top gives `null`.
 * @internal
 */
export function canonicalJson(value: unknown): string {
  try {
    return stableStringify(value) ?? 'null';
  } catch (error) {
    // A server can send nesting far deeper than a recursive serialiser survives (JSON.parse
    // takes a million levels). Those values take the iterative path, which writes the same
    // text, so the hash does not depend on how much stack was left.
    if (error instanceof RangeError) return iterativeCanonicalJson(value) ?? 'null';
    throw error;
  }
}

/** sha256 of a string's UTF-8 bytes, as lowercase hex. @internal */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

type Frame =
  | { kind: 'array'; node: readonly unknown[]; next: number }
  | { kind: 'object'; node: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The same text as {@link canonicalJson}'s serialiser for JSON-shaped data, with an explicit
 * stack instead of recursion. Exported for the equivalence test only.
 * @internal
 */
export function iterativeCanonicalJson(root: unknown): string | undefined {
  const out: string[] = [];
  const frames: Frame[] = [];
  const onPath = new Set<object>();

  // Writes a scalar, or opens a container (pushing a frame). Returns false when the value is
  // not representable (undefined, a function, a symbol), leaving the caller to skip it.
  const open = (key: string, input: unknown): boolean => {
    let value = input;
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ) {
      value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
    }
    switch (typeof value) {
      case 'string':
        out.push(JSON.stringify(value));
        return true;
      case 'number':
        out.push(Number.isFinite(value) ? String(value) : 'null');
        return true;
      case 'boolean':
        out.push(value ? 'true' : 'false');
        return true;
      case 'bigint':
        out.push(String(value));
        return true;
      case 'object':
        break;
      default:
        return false;
    }
    if (value === null) {
      out.push('null');
      return true;
    }
    if (onPath.has(value)) {
      out.push(JSON.stringify(CIRCULAR));
      return true;
    }
    onPath.add(value);
    if (Array.isArray(value)) {
      out.push('[');
      frames.push({ kind: 'array', node: value, next: 0 });
    } else {
      const node = value as Record<string, unknown>;
      out.push('{');
      frames.push({
        kind: 'object',
        node,
        keys: Object.keys(node).sort(byCodeUnit),
        next: 0,
        wrote: false,
      });
    }
    return true;
  };

  if (!open('', root)) return undefined;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    if (frame.kind === 'array') {
      if (frame.next >= frame.node.length) {
        out.push(']');
        onPath.delete(frame.node);
        frames.pop();
        continue;
      }
      const i = frame.next++;
      if (i > 0) out.push(',');
      if (!open(String(i), frame.node[i])) out.push('null');
      continue;
    }
    if (frame.next >= frame.keys.length) {
      out.push('}');
      onPath.delete(frame.node);
      frames.pop();
      continue;
    }
    const key = frame.keys[frame.next++] as string;
    const mark = out.length;
    out.push(`${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`);
    if (open(key, frame.node[key])) frame.wrote = true;
    else out.length = mark;
  }
  return out.join('');
}
