import { readFileSync } from 'node:fs';
import { caught, checkErrors, checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('public entry', () => {
  checkPublicEntry(api, api.McpToolsErrorCode, import.meta.url);

  it('needs no MCP SDK at run time', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@garuda/mcp-sanitize', 'zod']);
  });
});

describe('errors', () => {
  const negative = caught(() => api.adaptTools('srv', [], { maxTools: -1 }));

  checkErrors(api.McpToolsError, {
    marker: 'garuda.mcp-tools.McpToolsError',
    codes: api.McpToolsErrorCode,
    below: [api.InvalidOptionError],
    samples: [
      {
        error: negative,
        Class: api.InvalidOptionError,
        code: api.McpToolsErrorCode.INVALID_OPTION,
        name: 'InvalidOptionError',
      },
    ],
  });

  it('name the option and say what it must be', async () => {
    const error = (await negative) as api.InvalidOptionError;
    expect(error.option).toBe('maxTools');
    expect(error.message).toBe('adaptTools: maxTools must be a non-negative integer, not -1');
  });

  it('are thrown for formatResult options too, and never for what a server sends', () => {
    for (const maxChars of [-1, 1.5, Number.NaN, '3']) {
      expect(() => api.formatResult('s', 't', {}, { maxChars: maxChars as number })).toThrow(
        api.InvalidOptionError,
      );
    }
    expect(() => api.formatResult('s', 't', { content: 'x' }, { maxChars: 0 })).not.toThrow();
  });
});
