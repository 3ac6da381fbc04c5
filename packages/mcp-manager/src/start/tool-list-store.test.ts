import { describe, expect, it } from 'vitest';
import { ToolListStore } from './tool-list-store.js';

const PARTITION = JSON.stringify(['fixture@1.0.0', '']);

describe('ToolListStore', () => {
  it('keeps the tools/list entry the SDK checks output schemas with', () => {
    const store = new ToolListStore();
    const key = { method: 'tools/list', params: '', partition: PARTITION };
    const stamp = store.set(key, { value: '{"tools":[]}', expiresAt: 1, scope: 'private' });
    expect(store.get(key)).toEqual({
      value: '{"tools":[]}',
      expiresAt: 1,
      scope: 'private',
      stamp,
    });
    // Another server's partition is another entry.
    expect(store.get({ ...key, partition: JSON.stringify(['other@1.0.0', '']) })).toBeUndefined();
    store.delete(key);
    expect(store.get(key)).toBeUndefined();
  });

  it('never takes one partition and params pair for another', () => {
    const store = new ToolListStore();
    const pairs: [string | undefined, string | undefined][] = [
      ['ab', 'c'],
      ['a', 'bc'],
      ['', 'abc'],
      ['abc', ''],
      [undefined, 'abc'],
      ['1:a', ''],
      ['', '1:a'],
    ];
    const stamps = pairs.map(([partition, params]) =>
      store.set(
        { method: 'tools/list', ...(partition === undefined ? {} : { partition }), params },
        { value: `{"tools":[],"n":"${String(partition)}|${String(params)}"}` },
      ),
    );
    // An omitted partition or params is the empty one (the SDK's own store reads it so).
    expect(store.get({ method: 'tools/list', partition: '', params: 'abc' })?.stamp).toBe(
      stamps[4],
    );
    pairs.forEach(([partition, params], i) => {
      if (i === 2) return; // written over by the omitted partition above
      expect(store.get({ method: 'tools/list', partition: partition ?? '', params })?.stamp).toBe(
        stamps[i],
      );
    });
  });

  it('forgets every other result, so those are always read from the server', () => {
    const store = new ToolListStore();
    for (const method of ['prompts/list', 'resources/list', 'resources/templates/list']) {
      const key = { method, params: '', partition: PARTITION };
      store.set(key, { value: '{}', expiresAt: Number.MAX_SAFE_INTEGER, scope: 'public' });
      expect(store.get(key)).toBeUndefined();
    }
    const read = { method: 'resources/read', params: 'file:///a', partition: PARTITION };
    store.set(read, { value: '{"contents":[]}', expiresAt: Number.MAX_SAFE_INTEGER });
    expect(store.get(read)).toBeUndefined();
  });

  it('counts a stamp for every write, and evict and clear drop the tool list', () => {
    const store = new ToolListStore();
    const key = { method: 'tools/list', params: '', partition: PARTITION };
    const first = store.set({ ...key, method: 'prompts/list' }, { value: '{}' });
    const second = store.set(key, { value: '{"tools":[]}' });
    expect(second).toBeGreaterThan(first);
    store.evict('prompts/list');
    expect(store.get(key)?.stamp).toBe(second);
    store.evict('tools/list');
    expect(store.get(key)).toBeUndefined();
    store.set(key, { value: '{"tools":[]}' });
    store.clear();
    expect(store.get(key)).toBeUndefined();
  });
});
