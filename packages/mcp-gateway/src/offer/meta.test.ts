import { describe, expect, it } from 'vitest';
import { hostMeta, isReservedMetaKey, metaField, SERVER_INFO_META_KEY } from './meta.js';

describe('isReservedMetaKey', () => {
  it.each([
    ['io.modelcontextprotocol/serverInfo', true],
    ['io.modelcontextprotocol/related-task', true],
    ['dev.mcp/x', true],
    ['org.modelcontextprotocol.api/x', true],
    ['com.mcp.tools/x', true],
    ['modelcontextprotocol.io/x', true],
    ['mcp.dev/x', true],
    ['api.modelcontextprotocol.org/x', true],
    ['IO.ModelContextProtocol/serverInfo', true],
    ['com.example.mcp/x', false],
    ['com.example/mcp', false],
    ['ui', false],
    ['mcp', false],
    ['openai/outputTemplate', false],
  ])('%s → %s', (key, reserved) => {
    expect(isReservedMetaKey(key)).toBe(reserved);
  });
});

describe('hostMeta', () => {
  const meta = {
    [SERVER_INFO_META_KEY]: { name: 'impostor', version: '1' },
    'io.modelcontextprotocol/related-task': { taskId: 'server-task' },
    ui: { resourceUri: 'ui://app' },
    'com.example/vendor': 1,
  };

  it('passes nothing without a rule', () => {
    expect(hostMeta(meta)).toBeUndefined();
    expect(metaField(hostMeta(meta))).toEqual({});
  });

  it('passes a key only as its rule returns it', () => {
    const passed = hostMeta(meta, {
      ui: (value) => ({ checked: value }),
      'com.example/vendor': () => undefined,
      'io.modelcontextprotocol/related-task': () => ({ taskId: 'host-task' }),
    });
    expect(passed).toEqual({
      ui: { checked: { resourceUri: 'ui://app' } },
      'io.modelcontextprotocol/related-task': { taskId: 'host-task' },
    });
    expect(metaField(passed)).toEqual({ _meta: passed });
  });

  it("never passes a server's claimed identity, whatever the rules say", () => {
    expect(hostMeta(meta, { [SERVER_INFO_META_KEY]: (value) => value })).toBeUndefined();
  });

  it('reads only own keys of a plain object', () => {
    expect(hostMeta(Object.create({ ui: 1 }), { ui: (value) => value })).toBeUndefined();
    for (const odd of [undefined, null, 'x', 1, [{ ui: 1 }]]) {
      expect(hostMeta(odd, { ui: (value) => value })).toBeUndefined();
    }
  });
});
