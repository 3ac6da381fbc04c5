import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderr-tail.js';

describe('StderrTail', () => {
  it('keeps the last N lines, oldest first', () => {
    const tail = new StderrTail(3, 100);
    tail.push('one\ntwo\nthree\nfour\nfi');
    tail.push('ve\n');
    expect(tail.lines()).toEqual(['three', 'four', 'five']);
  });

  it('caps each line, also one that never ends, and bounds memory', () => {
    const tail = new StderrTail(2, 10);
    for (let i = 0; i < 1_000; i++) tail.push('x'.repeat(1_000));
    expect(tail.lines()).toEqual(['xxxxxxxxxx …']);
    tail.push('\nok\n');
    expect(tail.lines()).toEqual(['xxxxxxxxxx …', 'ok']);
  });

  it('cleans what it returns: no escapes, bidi or control characters', () => {
    const tail = new StderrTail(5, 100);
    tail.push('\x1b[31merror\x1b[0m \u202eevil\u200b\r\n\x1b]0;title\x07\n');
    expect(tail.lines()).toEqual(['error evil']);
  });
});

describe('StderrTail head', () => {
  it('keeps the first lines once they scroll out of the tail, and only then', () => {
    const tail = new StderrTail(3, 100, 2);
    tail.push('Error: no token\nusage\n');
    expect(tail.headLines()).toEqual([]);
    tail.push('a\nb\nc\nd\n');
    expect(tail.lines()).toEqual(['b', 'c', 'd']);
    expect(tail.headLines()).toEqual(['Error: no token', 'usage']);
  });

  it('returns only the head lines that left the tail', () => {
    const tail = new StderrTail(3, 100, 5);
    tail.push('one\ntwo\nthree\nfour\n');
    expect(tail.headLines()).toEqual(['one']);
  });
});
