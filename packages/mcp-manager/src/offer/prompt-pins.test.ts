import { describe, expect, it } from 'vitest';
import { APP_PIN } from './app-pins.js';
import { pinCounts, pinLabel, pinnedList, splitPinned } from './prompt-pins.js';

describe('pinCounts', () => {
  it('counts the tools, the prompts and the apps of a pinned list apart', () => {
    const list = pinnedList(
      [
        { name: 'echo', inputSchema: { type: 'object' } },
        { name: 'add', inputSchema: { type: 'object' } },
      ],
      [{ name: 'review' }],
    );
    const names = [...list.map((entry) => entry.name), `${APP_PIN}ui://x/a.html`];
    expect(pinCounts(names)).toEqual({ tools: 2, prompts: 1, apps: 1 });
    expect(pinCounts([])).toEqual({ tools: 0, prompts: 0, apps: 0 });
    // An app's entry is neither a tool nor a prompt when the list is split again.
    const split = splitPinned([
      ...list,
      { name: `${APP_PIN}ui://x/a.html`, inputSchema: { type: 'object' } },
    ]);
    expect(split.tools.map((tool) => tool.name)).toEqual(['echo', 'add']);
    expect(split.prompts.map((prompt) => prompt.name)).toEqual(['review']);
    expect(pinLabel(`${APP_PIN}ui://x/a.html`)).toBe('app ui://x/a.html');
  });
});
