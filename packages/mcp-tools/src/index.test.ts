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
    prefix: 'TOOLS_',
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

  it('are thrown for the options of the resource and prompt views, naming the function', () => {
    const calls: [string, string, () => unknown][] = [
      ['adaptResources', 'maxResources', () => api.adaptResources('s', [], { maxResources: -1 })],
      [
        'adaptResourceTemplates',
        'maxResources',
        () => api.adaptResourceTemplates('s', [], { maxResources: 0.5 }),
      ],
      ['formatResource', 'maxChars', () => api.formatResource('s', 'a:b', {}, { maxChars: -1 })],
      ['adaptPrompts', 'maxPrompts', () => api.adaptPrompts('s', [], { maxPrompts: Number.NaN })],
      ['formatPrompt', 'maxChars', () => api.formatPrompt('s', 'p', {}, { maxChars: -2 })],
    ];
    for (const [fn, option, call] of calls) {
      expect(call).toThrow(api.InvalidOptionError);
      expect(call).toThrow(new RegExp(`^${fn}: ${option} must be a non-negative integer`));
    }
    expect(() => api.formatResource('s', 'a:b', 'x', { maxChars: 0 })).not.toThrow();
    expect(() => api.formatPrompt('s', 'p', 'x', { maxChars: 0 })).not.toThrow();
  });
});
