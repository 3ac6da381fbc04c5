import { describe, expect, it } from 'vitest';
import { pinnedText } from './format.js';

describe('pinnedText', () => {
  it('names tools always, prompts and MCP Apps only when there are some', () => {
    expect(pinnedText({ tools: 1, prompts: 0 })).toBe('1 tool');
    expect(pinnedText({ tools: 15, prompts: 4 })).toBe('15 tools, 4 prompts');
    expect(pinnedText({ tools: 2, prompts: 0, apps: 1 })).toBe('2 tools, 1 app');
    expect(pinnedText({ tools: 3, prompts: 1, apps: 2 })).toBe('3 tools, 1 prompt, 2 apps');
  });
});
