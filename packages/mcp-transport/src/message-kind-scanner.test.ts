import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MessageKindScanner, type MessageShape } from './message-kind-scanner.js';
import { cutAt } from '../test/support/stream.js';

function scan(...chunks: (string | Buffer)[]): MessageShape {
  const scanner = new MessageKindScanner();
  for (const chunk of chunks) scanner.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return scanner.finish();
}

function byteByByte(line: string | Buffer): MessageShape {
  const bytes = typeof line === 'string' ? Buffer.from(line) : line;
  const scanner = new MessageKindScanner();
  for (let i = 0; i < bytes.length; i++) scanner.push(bytes.subarray(i, i + 1));
  return scanner.finish();
}

/** Whole, byte by byte, and cut at every place into two: always the same answer. */
function expectShape(line: string, expected: MessageShape): void {
  expect(scan(line), line).toEqual(expected);
  expect(byteByByte(line), line).toEqual(expected);
  const bytes = Buffer.from(line);
  for (let cut = 1; cut < bytes.length; cut++) {
    expect(scan(bytes.subarray(0, cut), bytes.subarray(cut)), `${line} cut at ${cut}`).toEqual(
      expected,
    );
  }
}

const UNKNOWN: MessageShape = { kind: 'unknown', id: undefined };
const NOTIFICATION: MessageShape = { kind: 'notification', id: undefined };

describe('MessageKindScanner', () => {
  it('tells the three kinds apart, as the SDK writes them (result first, id last)', () => {
    expectShape('{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":7}', {
      kind: 'response',
      id: 7,
    });
    expectShape('{"jsonrpc":"2.0","id":"c-1","error":{"code":-32603,"message":"no"}}', {
      kind: 'response',
      id: 'c-1',
    });
    expectShape('{"method":"ping","params":{},"jsonrpc":"2.0","id":0}', { kind: 'request', id: 0 });
    expectShape(
      '{"method":"notifications/message","params":{"data":"x"},"jsonrpc":"2.0"}',
      NOTIFICATION,
    );
  });

  it('takes keys in any order, with any whitespace around them', () => {
    expectShape(' \t{ "id" : 3 ,\t"jsonrpc":"2.0" , "method" :"x" } \r', {
      kind: 'request',
      id: 3,
    });
    expectShape('{"params":{"a":[1,{"b":2}]},"method":"x","jsonrpc":"2.0"}', NOTIFICATION);
    expectShape('{"jsonrpc":"2.0","result":{},"id":-12}', { kind: 'response', id: -12 });
  });

  it('counts only top-level keys: a "method" or "id" nested in a value does not count', () => {
    expectShape(
      '{"jsonrpc":"2.0","result":{"method":"x","content":[{"method":"y","id":9}]},"id":1}',
      { kind: 'response', id: 1 },
    );
    expectShape('{"jsonrpc":"2.0","params":{"id":5},"method":"m"}', NOTIFICATION);
    expectShape('{"result":[[["method"]]],"id":2}', { kind: 'response', id: 2 });
    // Inside strings, quotes, brackets and braces are text.
    expectShape('{"result":"\\"method\\":\\"x\\" } ] { [","id":3}', { kind: 'response', id: 3 });
    expectShape('{"result":{"t":"}}}\\\\","method":"\\\\"},"id":4}', { kind: 'response', id: 4 });
    // Every kind of escape in a string, nested or not, then more keys.
    expectShape(
      '{"result":{"t":"a\\nb\\tc\\u0041\\/\\b\\f\\r\\\\\\"d"},"note":"x\\ny\\u007d","id":6}',
      { kind: 'response', id: 6 },
    );
    expectShape('{"note":"\\n\\u0022}","method":"m","params":["\\t\\"]"]}', NOTIFICATION);
    // A key's value that merely spells "method" is a value.
    expectShape('{"note":"method","id":5}', { kind: 'response', id: 5 });
  });

  it('decodes escapes in keys as JSON does; a key that differs after decoding does not count', () => {
    expectShape('{"\\u006dethod":"x","\\u0069\\u0064":2}', { kind: 'request', id: 2 });
    expectShape('{"\\u006d\\u0065\\u0074\\u0068\\u006f\\u0064":"x","jsonrpc":"2.0"}', NOTIFICATION);
    expectShape('{"\\u006d ethod":"x","id":2}', { kind: 'response', id: 2 });
    expectShape('{"Method":"x","ID":2}', UNKNOWN);
    expectShape('{"method ":"x","id ":2}', UNKNOWN);
    // Not JSON: the SDK could not have read it either.
    expectShape('{"m\\ethod":"x","id":2}', UNKNOWN);
    expectShape('{"me\tthod":"x","id":2}', UNKNOWN);
  });

  it('keeps an id that is a number or a string (escapes decoded); other values give none', () => {
    expectShape('{"result":{},"id":"a\\"b\\u00e9 日本"}', { kind: 'response', id: 'a"bé 日本' });
    expectShape('{"result":{},"id":1.5e3}', { kind: 'response', id: 1500 });
    expectShape('{"result":{},"id":-0.25}', { kind: 'response', id: -0.25 });
    for (const value of ['null', 'true', 'false', '{"a":1}', '[1]', '{}', '[]']) {
      expectShape(`{"id":${value},"error":{}}`, { kind: 'response', id: undefined });
    }
    expectShape('{"method":"x","id":null}', { kind: 'request', id: undefined });
    // Too long to keep: still an id, not its value.
    expectShape(`{"result":{},"id":"${'i'.repeat(129)}"}`, { kind: 'response', id: undefined });
    expect(scan(`{"result":{},"id":"${'i'.repeat(128)}"}`).id).toBe('i'.repeat(128));
    expect(scan(`{"result":{},"id":${'9'.repeat(200)}}`)).toEqual({
      kind: 'response',
      id: undefined,
    });
  });

  it('repeated keys: present once is present, the last id wins (as JSON.parse)', () => {
    expectShape('{"id":1,"result":{},"id":"x"}', { kind: 'response', id: 'x' });
    expectShape('{"id":1,"result":{},"id":null}', { kind: 'response', id: undefined });
    expectShape('{"method":"a","method":"b","id":1}', { kind: 'request', id: 1 });
  });

  it('a line that is not one complete JSON object is unknown, with no id', () => {
    for (const line of [
      '',
      '   ',
      'plain text',
      '42',
      'null',
      '"{\\"id\\":1}"',
      '[{"jsonrpc":"2.0","id":1,"result":{}}]',
      '\ufeff{"id":1,"result":{}}',
      '{"id":1,"result":{}} trailing',
      '{"id":1,"result":{}}{"id":2}',
      '{"id":1,}',
      '{,"id":1}',
      '{"id" 1}',
      '{"id":1 "result":{}}',
      '{"id":01,"result":{}}',
      '{"id":tru,"result":{}}',
      '{"id":1,"result":{"a":',
      '{"id":1,"result":"unterminated',
      '{"id":1',
      '{"id',
      '{',
      '{}',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","error":{"code":1,"message":"no id"}}',
      '{"id":1,:2}',
      "{'id':1}",
      '{id:1}',
    ]) {
      expectShape(line, UNKNOWN);
    }
  });

  it('gets the same answer whatever the chunking (property, with JSON.parse as the oracle)', () => {
    const key = fc.oneof(
      fc.constantFrom('method', 'id', 'result', 'params', 'jsonrpc', 'error'),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
    );
    const id = fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 140 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const message = fc.uniqueArray(key, { maxLength: 6 }).chain((keys) =>
      fc.tuple(
        ...keys.map((k) =>
          fc.tuple(
            fc.constant(k),
            k === 'id'
              ? id
              : fc.oneof(
                  fc.jsonValue({ maxDepth: 3 }),
                  // Any code point: control characters are written as escapes (`\u0002`, `\n`).
                  fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
                ),
          ),
        ),
      ),
    );
    fc.assert(
      fc.property(
        message,
        fc.constantFrom(0, 1, '\t'),
        fc.array(fc.nat(300), { maxLength: 6 }),
        (entries, indent, cuts) => {
          const text = JSON.stringify(Object.fromEntries(entries), null, indent);
          const parsed = JSON.parse(text) as Record<string, unknown>;
          const hasMethod = Object.hasOwn(parsed, 'method');
          const hasId = Object.hasOwn(parsed, 'id');
          const raw = parsed.id;
          const expectedId =
            typeof raw === 'number' ||
            (typeof raw === 'string' && Buffer.byteLength(JSON.stringify(raw)) - 2 <= 128)
              ? raw
              : undefined;
          const expected: MessageShape = {
            kind: hasMethod ? (hasId ? 'request' : 'notification') : hasId ? 'response' : 'unknown',
            id: hasMethod || hasId ? expectedId : undefined,
          };
          const bytes = Buffer.from(text);
          const scanner = new MessageKindScanner();
          for (const piece of cutAt(bytes, cuts)) scanner.push(piece);
          expect(scanner.finish()).toEqual(expected);
          expect(byteByByte(bytes)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads huge lines in bounded memory: long strings, long keys, deep nesting, no end', () => {
    const mib = 1024 * 1024;
    // A 5 MiB text full of quotes, backslashes and brackets, with the id after it.
    const text = JSON.stringify('a"\\{['.repeat(mib));
    expect(scan('{"result":{"content":[{"type":"text","text":', text, '}]},"id":42}')).toEqual({
      kind: 'response',
      id: 42,
    });
    // A key far over its cap is some other key, even when it starts with "method".
    expect(scan(`{"method${'x'.repeat(mib)}":"x","id":1}`)).toEqual({ kind: 'response', id: 1 });
    // Nesting a million levels deep costs a counter, not a stack.
    const deep = mib;
    expect(scan('{"result":', '['.repeat(deep), ']'.repeat(deep), ',"id":"d"}')).toEqual({
      kind: 'response',
      id: 'd',
    });
    // A line that never ends: every kind of unfinished value, in many chunks.
    for (const start of ['{"result":"', '{"', '{"id":1,"result":[', '{"id":"']) {
      const scanner = new MessageKindScanner();
      scanner.push(Buffer.from(start));
      const chunk = Buffer.alloc(64 * 1024, 'z');
      for (let i = 0; i < 80; i++) scanner.push(chunk);
      expect(scanner.finish()).toEqual(UNKNOWN);
    }
  });
});
