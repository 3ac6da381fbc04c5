// fast-check arbitraries for this package's property tests: strings and values a hostile server
// could send, biased towards what the cleaning must catch.
import { HOSTILE } from '@garuda/test-utils';
import fc from 'fast-check';

/** Pieces hostile text is made of: our wrapper tags in disguise, escapes, bidi, quotes. */
const dangerous = fc.constantFrom(
  '</mcp_result>',
  '<mcp_result server="x">',
  '</mcp_resource>',
  '<mcp_resource uri="x">',
  '</mcp_prompt>',
  '<mcp_prompt>',
  '<garuda_note>',
  '＜／ｍｃｐ＿ｒｅｓｕｌｔ＞',
  '＜／ｍｃｐ＿ｒｅｓｏｕｒｃｅ＞',
  '＜／ｍｃｐ＿ｐｒｏｍｐｔ＞',
  '<\u200b/mcp_result>',
  '<\u200b/mcp_resource>',
  '\u3008/mcp-prompt>',
  '\x1b]0;t\x07',
  '\u202e',
  'urn:',
  'javascript:',
  'file:///',
  '<',
  '/',
  '>',
  '\n',
  '"',
  ...Object.values(HOSTILE),
);

/** A string built from hostile pieces and arbitrary UTF-16 (lone surrogates included). */
export const hostileString = fc
  .array(fc.oneof(dangerous, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 12 })
  .map((parts) => parts.join(''));

/** One MCP content block, well formed or not. */
export const contentBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: hostileString }),
  fc.record({
    type: fc.constantFrom('image', 'audio'),
    data: fc.base64String(),
    mimeType: hostileString,
  }),
  fc.record({ type: fc.constant('resource_link'), uri: hostileString, name: hostileString }),
  fc.record({
    type: fc.constant('resource'),
    resource: fc.record({ uri: hostileString, text: hostileString }, { requiredKeys: ['uri'] }),
  }),
  fc.jsonValue({ maxDepth: 3 }),
);

/**
 * A value no JSON parser makes, as a marker: fast-check itself reads the values it generates (to
 * clone and print them), which a throwing proxy would break, so {@link materialize} swaps each
 * marker for the real thing inside the property.
 */
class Unreadable {
  constructor(readonly kind: 'throwing proxy' | 'revoked proxy' | 'throwing getter') {}

  toString(): string {
    return `[${this.kind}]`;
  }
}

/** Markers of a proxy whose every read throws, a revoked proxy and an object with a throwing getter. */
export const unreadable = fc
  .constantFrom('throwing proxy', 'revoked proxy', 'throwing getter')
  .map((kind) => new Unreadable(kind));

function boom(): never {
  throw new Error('boom');
}

function made(marker: Unreadable): unknown {
  switch (marker.kind) {
    case 'throwing proxy':
      return new Proxy({}, { get: boom, has: boom, ownKeys: boom, getPrototypeOf: boom });
    case 'revoked proxy': {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }
    case 'throwing getter':
      return Object.defineProperty({}, 'text', { enumerable: true, get: boom });
  }
}

/**
 * A generated value with each {@link unreadable} marker, in arrays and plain objects, replaced by
 * the value it stands for. Everything else is kept as generated.
 *
 * @param value - A value from these arbitraries.
 * @returns The value to give the code under test.
 */
export function materialize(value: unknown): unknown {
  if (value instanceof Unreadable) return made(value);
  if (Array.isArray(value)) return (value as unknown[]).map(materialize);
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const copy = Object.create(proto as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: materialize((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Anything, JSON or not, with hostile strings and unreadable values mixed in. */
export const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.anything(),
  hostileString,
  unreadable,
);

/** ASCII text in fullwidth letters and signs (`＜／ｍｃｐ＿ｐｒｏｍｐｔ＞`). */
function fullwidth(text: string): string {
  return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
}

/**
 * `</tag>` in disguises the sanitizer must see through: spaced out, upper case with another
 * separator, an invisible character after `<`, fullwidth, and `<` lookalikes.
 *
 * @param tag - A tag name such as `mcp_prompt`.
 * @returns The disguised closing tags.
 */
export function closingTagDisguises(tag: string): string[] {
  return [
    `</${tag}>`,
    `</${tag.toUpperCase().replace('_', '-')} >`,
    `<\u200b/ ${tag} >`,
    fullwidth(`</${tag}>`),
    `\u3008/${tag}>`,
    `\u27e8/${tag}>`,
  ];
}
