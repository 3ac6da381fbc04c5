import { describe, expect, it } from 'vitest';
import { diffTools } from './diff-tools.js';
import { hashAppContent } from './hash-app.js';
import { hashTools, toolHashes } from './hash-tools.js';

const html = '<!doctype html><p>\u200bhi</p>';

describe('hashAppContent', () => {
  it('hashes the bytes as served: text and the same bytes as base64 pin alike', () => {
    const pin = hashAppContent({ text: html });
    expect(pin).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hashAppContent({ blob: Buffer.from(html, 'utf8').toString('base64') })).toBe(pin);
  });

  it('any byte changes it, an invisible one too', () => {
    expect(hashAppContent({ text: html.replace('\u200b', '') })).not.toBe(
      hashAppContent({ text: html }),
    );
  });

  it('is undefined without text or blob', () => {
    expect(hashAppContent({})).toBeUndefined();
  });
});

describe("a tool's _meta.ui is pinned, the rest of _meta is not", () => {
  const base = { name: 'board', description: 'd', inputSchema: { type: 'object' } };
  const withUi = (ui: unknown, trace = 'a') => ({ ...base, _meta: { ui, trace } });

  it('a tool without _meta.ui hashes as before', () => {
    expect(hashTools([{ ...base, _meta: { trace: 'x' } }])).toBe(hashTools([base]));
    expect(toolHashes([{ ...base, _meta: { trace: 'x' } }])).toEqual(toolHashes([base]));
  });

  it('a change of _meta.ui is a change of the description side; other _meta is not', () => {
    const before = withUi({ resourceUri: 'ui://x/a.html' });
    expect(hashTools([withUi({ resourceUri: 'ui://x/a.html' }, 'b')])).toBe(hashTools([before]));
    const after = withUi({ resourceUri: 'ui://x/a.html', visibility: ['app'] });
    expect(hashTools([after])).not.toBe(hashTools([before]));
    expect(diffTools(toolHashes([before]), [after]).changed).toEqual([
      { tool: 'board', description: true, schema: false },
    ]);
  });
});
