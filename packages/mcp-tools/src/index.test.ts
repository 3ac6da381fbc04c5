import { readFileSync } from 'node:fs';
import { caught, checkErrors, checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

// The whole runtime surface, as README.md documents it.
const VALUES = [
  'InvalidOptionError',
  'MAX_ATTRIBUTE_CHARS',
  'MAX_DESCRIPTION_CHARS',
  'MAX_PREVIEW_ARGUMENTS',
  'MAX_PREVIEW_ARGUMENT_CHARS',
  'MAX_PREVIEW_DEPTH',
  'MAX_PREVIEW_NAME_CHARS',
  'MAX_QUOTED_CHARS',
  'MAX_RAW_TOOL_NAME_CHARS',
  'MAX_RESULT_CHARS',
  'MAX_SCHEMA_CHARS',
  'MAX_SCHEMA_DEPTH',
  'MAX_SKIP_NOTICES',
  'MAX_TOOLS_PER_SERVER',
  'MAX_TOOL_NAME_LENGTH',
  'McpToolsError',
  'McpToolsErrorCode',
  'TOOL_NAME_PATTERN',
  'adaptTools',
  'callPreview',
  'callPreviewText',
  'capLine',
  'descriptionPrefix',
  'filterToolList',
  'formatResult',
  'groupDigits',
  'previewArgumentsText',
  'quoteText',
  'toolName',
  'toolPrefix',
];

describe('public entry', () => {
  checkPublicEntry(api, VALUES, api.McpToolsErrorCode, import.meta.url);

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
