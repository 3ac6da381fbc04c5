import { caught, checkErrors, checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('public entry', () => {
  checkPublicEntry(api, api.SanitizeErrorCode, import.meta.url);
});

describe('errors', () => {
  checkErrors(api.SanitizeError, {
    marker: 'garuda.mcp-sanitize.SanitizeError',
    codes: api.SanitizeErrorCode,
    prefix: 'SANITIZE_',
    samples: [
      {
        error: caught(() => api.capText('x', -1)),
        Class: api.SanitizeError,
        code: api.SanitizeErrorCode.INVALID_LIMIT,
        name: 'SanitizeError',
      },
    ],
  });

  it('quote attacker text in messages, escaping everything outside printable ASCII', () => {
    expect(() => api.compileTags(['bad\nname'])).toThrow('"bad\\nname"');
    expect(() => api.compileTags(['x\u202ey\x1b[2J'])).toThrow('"x\\u202ey\\u001b[2J"');
    expect(() => api.compileTags([7 as never])).toThrow('tag name (a number, not a string)');
  });
});
