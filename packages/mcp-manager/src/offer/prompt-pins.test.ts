import { describe, expect, it } from 'vitest';
import { pinCounts, pinnedList } from './prompt-pins.js';

describe('pinCounts', () => {
  it('counts the tools and the prompts of a pinned list apart', () => {
    const list = pinnedList(
      [
        { name: 'echo', inputSchema: { type: 'object' } },
        { name: 'add', inputSchema: { type: 'object' } },
      ],
      [{ name: 'review' }],
    );
    expect(pinCounts(list.map((entry) => entry.name))).toEqual({ tools: 2, prompts: 1 });
    expect(pinCounts([])).toEqual({ tools: 0, prompts: 0 });
  });
});
