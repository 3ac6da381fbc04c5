import { describe, expect, it } from 'vitest';
import { toolShapeProblem } from './tool-shape.js';

describe('toolShapeProblem', () => {
  it.each([
    [{ name: 'ok', inputSchema: { type: 'object' } }, undefined],
    [{ name: 'read file', inputSchema: { type: 'object', properties: {} } }, undefined],
    [{ name: 'größe.名前-x', inputSchema: { type: 'object' } }, undefined],
    [{ name: 'n'.repeat(1_000), inputSchema: { type: 'object' } }, undefined],
    [
      { name: 'n'.repeat(1_001), inputSchema: { type: 'object' } },
      'its name is longer than 1 000 characters',
    ],
    ['x', 'it is not an object'],
    [[{ name: 'x' }], 'it is not an object'],
    [{ inputSchema: { type: 'object' } }, 'it has no name'],
    [{ name: '', inputSchema: { type: 'object' } }, 'its name is empty'],
    [
      { name: ' x', inputSchema: { type: 'object' } },
      'its name contains control, invisible or bidi characters, line breaks, extra spaces or wrapper tags',
    ],
    [
      { name: 'a\u200bb', inputSchema: { type: 'object' } },
      'its name contains control, invisible or bidi characters, line breaks, extra spaces or wrapper tags',
    ],
    [
      { name: 'a<garuda_note>', inputSchema: { type: 'object' } },
      'its name contains control, invisible or bidi characters, line breaks, extra spaces or wrapper tags',
    ],
    [{ name: 'x', inputSchema: null }, 'its input schema is not an object'],
    [{ name: 'x', inputSchema: { type: ['object'] } }, 'its input schema\'s type is not "object"'],
  ])('%j → %s', (tool, expected) => {
    expect(toolShapeProblem(tool)).toBe(expected);
  });
});
