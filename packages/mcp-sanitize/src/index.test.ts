import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { SanitizeError, SanitizeErrorCode } from './index.js';

describe('public entry', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'DEFAULT_TAGS',
        'JSON_MARKERS',
        'MAX_TAGS',
        'NEUTRAL_BRACKET',
        'SanitizeError',
        'SanitizeErrorCode',
        'capText',
        'cleanJson',
        'cleanLine',
        'cleanText',
        'compileTags',
        'neutralizeTags',
      ].sort(),
    );
  });
});

describe('errors', () => {
  it('carry a stable code, a name and a cross-copy marker', () => {
    let caught: unknown;
    try {
      api.capText('x', -1);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(api.SanitizeError);
    expect(SanitizeError.isInstance(caught)).toBe(true);
    expect((caught as SanitizeError).code).toBe(SanitizeErrorCode.INVALID_LIMIT);
    expect((caught as SanitizeError).name).toBe('SanitizeError');
    // An error from another copy of the package carries the same registered symbol.
    const foreign = {
      [Symbol.for('garuda.mcp-sanitize.SanitizeError')]: true,
      code: 'INVALID_TAG',
    };
    expect(SanitizeError.isInstance(foreign)).toBe(true);
    expect(SanitizeError.isInstance(new Error('x'))).toBe(false);
    expect(SanitizeError.isInstance(null)).toBe(false);
  });

  it('quote attacker text in messages, escaping everything outside printable ASCII', () => {
    expect(() => api.compileTags(['bad\nname'])).toThrow('"bad\\nname"');
    expect(() => api.compileTags(['x\u202ey\x1b[2J'])).toThrow('"x\\u202ey\\u001b[2J"');
    expect(() => api.compileTags([7 as never])).toThrow('tag name (a number, not a string)');
  });
});
