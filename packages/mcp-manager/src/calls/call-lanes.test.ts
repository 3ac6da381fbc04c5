import { describe, expect, it } from 'vitest';
import { CallLanes, MAX_CALL_PATHS, callPaths } from './call-lanes.js';

describe('callPaths', () => {
  it('takes the strings under path-like names, resolved from the base', () => {
    expect(callPaths({ path: 'docs/a.md', text: 'docs/b.md' }, '/r')).toEqual(['/r/docs/a.md']);
    expect(callPaths({ source: '/x', destination: ['../y', 'z'] }, '/r/s')).toEqual([
      '/x',
      '/r/y',
      '/r/s/z',
    ]);
    expect(callPaths({ uri: 'file:///etc/hosts' }, '/r')).toEqual(['/etc/hosts']);
  });

  it('is undefined (conflicts with every call) for none, another scheme, or too many', () => {
    expect(callPaths({ text: 'a' }, '/r')).toBeUndefined();
    expect(callPaths({ uri: 'https://example.com/a' }, '/r')).toBeUndefined();
    const many = Array.from({ length: MAX_CALL_PATHS + 1 }, (_, i) => `f${String(i)}`);
    expect(callPaths({ files: many }, '/r')).toBeUndefined();
  });
});

describe('CallLanes', () => {
  it('lets calls on other paths in at once and makes conflicting ones wait, in order', async () => {
    const lanes = new CallLanes();
    const first = await lanes.enter(['/r/docs'], undefined);
    const other = await lanes.enter(['/r/src'], undefined);
    const order: string[] = [];
    const inside = lanes.enter(['/r/docs/a'], undefined).then((release) => {
      order.push('inside');
      return release;
    });
    const all = lanes.enter(undefined, undefined).then((release) => {
      order.push('all');
      return release;
    });
    expect(lanes.size).toBe(4);
    first();
    (await inside)();
    other();
    (await all)();
    expect(order).toEqual(['inside', 'all']);
    expect(lanes.size).toBe(0);
  });

  it('gives up the place of a wait whose signal aborts', async () => {
    const lanes = new CallLanes();
    const first = await lanes.enter(undefined, undefined);
    const stop = new AbortController();
    const waiting = lanes.enter(undefined, stop.signal);
    const after = lanes.enter(undefined, undefined);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    first();
    (await after)();
    expect(lanes.size).toBe(0);
  });
});
