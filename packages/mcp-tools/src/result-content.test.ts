import { HOSTILE_TEXT, hostileLeftovers } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatResult } from './format-result.js';
import { base64Bytes } from './content-text.js';
import { MAX_CONTENT_BLOCKS, resultContent } from './result-content.js';

const typed = (content: unknown, maxChars = 30_000) => resultContent(content, maxChars);

describe('resultContent: the typed blocks of a result', () => {
  it.each([
    ['not a list', 'text', []],
    [
      'a block that is not an object',
      [42],
      [{ type: 'other', note: 'a content block that is not an object' }],
    ],
    [
      'a text block without text',
      [{ type: 'text' }],
      [{ type: 'other', note: 'a text block without text' }],
    ],
    [
      'an unknown type',
      [{ type: 'hologram' }],
      [{ type: 'other', note: 'content of type "hologram"' }],
    ],
    [
      'an image whose data is not base64',
      [{ type: 'image', mimeType: 'image/png', data: 'not base64!' }],
      [{ type: 'image', mimeType: 'image/png', data: '', bytes: 0 }],
    ],
    [
      'audio without a type',
      [{ type: 'audio', data: 'AAAA' }],
      [{ type: 'audio', mimeType: 'unknown type', data: 'AAAA', bytes: 3 }],
    ],
    [
      'a script link',
      [{ type: 'resource_link', uri: 'javascript:alert(1)', name: 'x' }],
      [{ type: 'resource_link', uriRefused: 'SCHEME', name: 'x' }],
    ],
    [
      'a link without a uri',
      [{ type: 'resource_link' }],
      [{ type: 'resource_link', uriRefused: 'NO_URI' }],
    ],
    [
      'a binary resource',
      [
        {
          type: 'resource',
          resource: { uri: 'https://a.example/x', mimeType: 'application/zip', blob: 'AAAAAA==' },
        },
      ],
      [
        {
          type: 'resource',
          uri: 'https://a.example/x',
          mimeType: 'application/zip',
          blob: 'AAAAAA==',
          bytes: 4,
        },
      ],
    ],
    [
      'a resource without content',
      [{ type: 'resource' }],
      [{ type: 'other', note: 'an embedded resource without content' }],
    ],
  ])('%s', (_name, content, expected) => {
    expect(typed(content)).toEqual(expected);
  });

  it('cleans and neutralises text, and cleans one-line fields', () => {
    const [text, link, resource] = typed([
      { type: 'text', text: `before ${HOSTILE_TEXT} after` },
      {
        type: 'resource_link',
        uri: 'https://a.example/',
        name: `n\u202E\u001b[31m${'x'.repeat(900)}`,
      },
      {
        type: 'resource',
        resource: { uri: 'https://a.example/r', text: `</mcp_result>${HOSTILE_TEXT}` },
      },
    ]);
    expect(text?.type === 'text' && hostileLeftovers(text.text)).toEqual([]);
    expect(link?.type === 'resource_link' && link.name).toMatch(/^nx+…$/);
    expect(link?.type === 'resource_link' && Array.from(link.name ?? '').length).toBe(500);
    expect(resource?.type === 'resource' && resource.text).not.toContain('</mcp_result>');
  });

  it('caps each text at maxChars', () => {
    const [text] = typed([{ type: 'text', text: 'y'.repeat(10_000) }], 100);
    expect(text?.type === 'text' && text.text.length).toBeLessThanOrEqual(200);
  });

  it(`keeps at most ${MAX_CONTENT_BLOCKS} blocks and counts the rest`, () => {
    const blocks = typed(
      Array.from({ length: MAX_CONTENT_BLOCKS + 5 }, () => ({ type: 'text', text: 'a' })),
    );
    expect(blocks).toHaveLength(MAX_CONTENT_BLOCKS + 1);
    expect(blocks.at(-1)).toEqual({ type: 'omitted', count: 5 });
  });

  it('a throwing getter gives a note, never a throw', () => {
    const evil = {
      get type(): string {
        throw new Error('boom');
      },
    };
    expect(typed([evil])).toEqual([
      { type: 'other', note: 'a content block that could not be read' },
    ]);
  });

  it('formatResult carries the blocks; base64Bytes counts decoded bytes', () => {
    const result = formatResult('s', 't', { content: [{ type: 'text', text: 'hi' }] });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(formatResult('s', 't', null).content).toEqual([]);
    for (const bytes of [0, 1, 2, 3, 4, 5, 100]) {
      expect(base64Bytes(Buffer.alloc(bytes).toString('base64'))).toBe(bytes);
    }
  });

  it('never throws and no text block keeps a live closing tag', () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 20 }), fc.string(), (junk, text) => {
        const blocks = typed([...junk, { type: 'text', text: `${text}</mcp_result>` }]);
        for (const block of blocks) {
          if (block.type === 'text') expect(block.text).not.toContain('</mcp_result>');
        }
      }),
    );
  });
});
