import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLineReader } from './json-line-reader.js';
import { cutAt } from '../test/support/stream.js';
import type { MessageShape } from './message-kind-scanner.js';

function collect(max: number) {
  const lines: string[] = [];
  const oversized: { excerpt: string; bytes: number; shape: MessageShape }[] = [];
  const reader = new JsonLineReader(max, {
    onLine: (line) => lines.push(line),
    onOversized: (excerpt, bytes, shape) => oversized.push({ excerpt, bytes, shape }),
  });
  return { reader, lines, oversized };
}

describe('JsonLineReader', () => {
  it('splits on newlines across chunk edges, strips CR, keeps a last line without newline', () => {
    const { reader, lines } = collect(100);
    for (const part of ['{"a"', ':1}\r\n{"b":', '2}\n\n', 'tail']) reader.push(Buffer.from(part));
    reader.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '', 'tail']);
  });

  it('keeps multi-byte characters split between chunks intact', () => {
    const { reader, lines } = collect(100);
    const bytes = Buffer.from('"日本😀"\n');
    reader.push(bytes.subarray(0, 3));
    reader.push(bytes.subarray(3, 8));
    reader.push(bytes.subarray(8));
    expect(lines).toEqual(['"日本😀"']);
  });

  it('reports an oversized line once, skips it, and goes on reading', () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from('short\n' + 'x'.repeat(25)));
    reader.push(Buffer.from('y'.repeat(25) + '\nafter\n'));
    expect(lines).toEqual(['short', 'after']);
    expect(oversized).toHaveLength(1);
    expect(oversized[0]!.bytes).toBe(50);
    expect(oversized[0]!.excerpt.startsWith('xxxx')).toBe(true);
  });

  it('tells what an oversized line was from all of it: the kept start, the skipped rest', () => {
    const { reader, lines, oversized } = collect(16);
    // The id is in the part kept before the cap was passed; the method only in the skipped rest.
    reader.push(Buffer.from('{"id":5,"params":{"pad":"' + 'p'.repeat(40)));
    reader.push(Buffer.from('"},"met'));
    reader.push(Buffer.from('hod":"ping"}\r\n'));
    // A response whose id comes last, past the cap, split inside the number.
    reader.push(Buffer.from('{"result":{"text":"' + 'r'.repeat(40) + '"},"id":12'));
    reader.push(Buffer.from('34}\n{"a":1}\n'));
    // Over the cap before it is complete, then the stream ends: unknown.
    reader.push(Buffer.from('{"method":"notifications/message","params":'));
    reader.end();
    expect(lines).toEqual(['{"a":1}']);
    expect(oversized.map((o) => o.shape)).toEqual([
      { kind: 'request', id: 5 },
      { kind: 'response', id: 1234 },
      { kind: 'unknown', id: undefined },
    ]);
  });

  it('an oversized notification fed byte by byte is a notification', () => {
    const { reader, oversized } = collect(8);
    const line = Buffer.from('{"params":{"method":"x","id":1},"method":"notifications/x"}\n');
    for (let i = 0; i < line.length; i++) reader.push(line.subarray(i, i + 1));
    expect(oversized).toEqual([
      {
        // The excerpt is what had come when the cap was passed; the kind is from the whole line.
        excerpt: '{"params"',
        bytes: line.length - 1,
        shape: { kind: 'notification', id: undefined },
      },
    ]);
  });

  it('a line of exactly the cap passes; one byte more does not', () => {
    const { reader, lines, oversized } = collect(8);
    reader.push(Buffer.from('12345678\n123456789\n'));
    expect(lines).toEqual(['12345678']);
    expect(oversized).toHaveLength(1);
  });

  it('property: any chunking gives the same lines as splitting the whole', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 10 }),
        fc.array(fc.nat(40), { maxLength: 8 }),
        (parts, cuts) => {
          const text = parts.join('\n');
          const whole = Buffer.from(text);
          const { reader, lines } = collect(1_000);
          for (const piece of cutAt(whole, cuts)) reader.push(piece);
          reader.end();
          const expected = text.split('\n').map((l) => l.replace(/\r$/, ''));
          if (text === '' || text.endsWith('\n')) expected.pop();
          return JSON.stringify(lines) === JSON.stringify(expected);
        },
      ),
    );
  });
});
