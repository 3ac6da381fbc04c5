import { describe, expect, it } from 'vitest';
import { CodedError } from './coded-error.js';

class DemoError extends CodedError<'ONE' | 'TWO'> {}

describe('CodedError', () => {
  it('keeps its code and message, and is an Error', () => {
    const error = new DemoError('TWO', 'what happened: what to do');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('TWO');
    expect(error.message).toBe('what happened: what to do');
  });

  it('passes cause through, and leaves it out when there is none', () => {
    const cause = new Error('underlying');
    expect(new DemoError('ONE', 'x', { cause }).cause).toBe(cause);
    expect('cause' in new DemoError('ONE', 'x', { cause: undefined })).toBe(false);
    expect('cause' in new DemoError('ONE', 'x')).toBe(false);
    expect(new DemoError('ONE', 'x', { cause: 0 }).cause).toBe(0);
  });
});
