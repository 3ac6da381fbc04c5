import { describe, expect, it } from 'vitest';
import { adaptTools } from './adapt-tools.js';
import { MAX_RESOURCE_URI_CHARS } from './uri-limit.js';
import { isAppOnly, toolUi } from './tool-ui.js';

const tool = (ui: unknown) => ({ name: 't', inputSchema: { type: 'object' }, _meta: { ui } });

describe('toolUi', () => {
  it('keeps resourceUri and visibility, and nothing else', () => {
    expect(
      toolUi({ ui: { resourceUri: 'ui://x/a.html', visibility: ['app', 'app'], csp: {} } }),
    ).toEqual({ ui: { resourceUri: 'ui://x/a.html', visibility: ['app'] } });
    expect(toolUi({ other: 1 })).toEqual({});
    expect(toolUi(undefined)).toEqual({});
    expect(toolUi({ ui: { csp: {} } })).toEqual({});
  });

  it.each([
    ['https://evil.example/app.html'],
    ['ui://'],
    ['ui://x/\u202eevil'],
    ['ui://x/a\nb'],
    ['ui://x/</mcp_result>'],
    [`ui://${'a'.repeat(MAX_RESOURCE_URI_CHARS)}`],
    [42],
  ])('drops a resourceUri that is not a plain ui:// URI (#%#)', (resourceUri) => {
    expect(toolUi({ ui: { resourceUri } }).problem).toMatch(/resourceUri/);
  });

  it.each([[[]], [['model', 'root']], ['model'], [[1]]])(
    'drops a visibility that is not a list of model and app: %j',
    (visibility) => {
      expect(toolUi({ ui: { resourceUri: 'ui://x/a', visibility } }).problem).toMatch(/visibility/);
    },
  );

  it('app-only means a visibility without model', () => {
    expect(isAppOnly({ ui: { visibility: ['app'] } })).toBe(true);
    expect(isAppOnly({ ui: { visibility: ['model', 'app'] } })).toBe(false);
    expect(isAppOnly({ ui: { resourceUri: 'ui://x/a' } })).toBe(false);
    expect(isAppOnly({})).toBe(false);
  });
});

describe('adaptTools: _meta.ui', () => {
  it('keeps a valid one on the tool and tells a dropped one in uiDropped, keeping the tool', () => {
    const result = adaptTools('fx', [
      { ...tool({ resourceUri: 'ui://fx/board.html' }), name: 'board' },
      { ...tool({ resourceUri: 'https://x', visibility: ['root'] }), name: 'bad' },
    ]);
    expect(result.tools.map((t) => [t.tool, t.ui])).toEqual([
      ['board', { resourceUri: 'ui://fx/board.html' }],
      ['bad', undefined],
    ]);
    expect(result.notices).toEqual([]);
    expect(result.uiDropped).toEqual([
      'MCP server "fx": tool "bad": its _meta.ui.resourceUri is not a ui:// URI of at most 8192 plain characters; it is used without an app',
    ]);
  });
});
