// Properties of the resource and prompt views over hostile and arbitrary input: they never throw,
// and nothing a server sends leaves a live wrapper tag or a hidden character in what is shown.
import { allStrings, hostileLeftovers } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anyValue,
  contentBlock,
  hostileString,
  materialize,
  unreadable,
} from '../test/arbitraries.js';
import { adaptPrompts, formatPrompt } from './prompt-view.js';
import { adaptResourceTemplates, adaptResources, formatResource } from './resource-view.js';

/** Checks a wrapped text: one opening tag at the start, one closing tag at the very end, clean inside. */
function expectWrapped(text: string, tag: string): void {
  const close = `</${tag}>`;
  expect(text.startsWith(`<${tag} `)).toBe(true);
  expect(text.indexOf(close)).toBe(text.length - close.length);
  const start = text.indexOf('>\n');
  expect(hostileLeftovers(text.slice(tag.length + 1, start))).toEqual([]);
  expect(hostileLeftovers(text.slice(start + 2, -(close.length + 1)))).toEqual([]);
}

const ASKED = 'file:///asked';
const maxChars = fc.integer({ min: 0, max: 400 });

describe('formatResource: properties', () => {
  const content = fc.oneof(
    fc.record(
      {
        uri: fc.oneof(fc.constant(ASKED), hostileString, anyValue),
        mimeType: fc.oneof(hostileString, anyValue),
        text: hostileString,
        blob: fc.oneof(fc.base64String(), hostileString),
      },
      { requiredKeys: [] },
    ),
    anyValue,
  );
  const result = fc.oneof(
    anyValue,
    fc.record(
      { contents: fc.oneof(fc.array(content, { maxLength: 6 }), anyValue) },
      { requiredKeys: [] },
    ),
  );

  it('never throws, and its text has one live closing tag, at the very end', () => {
    fc.assert(
      fc.property(
        hostileString,
        fc.oneof(fc.constant(ASKED), hostileString),
        result,
        maxChars,
        (server, uri, value, max) => {
          const { text, contents, omitted } = formatResource(server, uri, materialize(value), {
            maxChars: max,
          });
          expectWrapped(text, 'mcp_resource');
          expect(omitted).toBeGreaterThanOrEqual(0);
          for (const { uri: _raw, ...shown } of contents) {
            for (const field of allStrings(shown)) expect(hostileLeftovers(field)).toEqual([]);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('formatPrompt: properties', () => {
  const message = fc.oneof(
    fc.record(
      {
        role: fc.oneof(fc.constantFrom('user', 'assistant'), hostileString, anyValue),
        content: fc.oneof(contentBlock, anyValue),
      },
      { requiredKeys: [] },
    ),
    anyValue,
  );
  const result = fc.oneof(
    anyValue,
    fc.record(
      {
        description: fc.oneof(hostileString, anyValue),
        messages: fc.oneof(fc.array(message, { maxLength: 6 }), anyValue),
      },
      { requiredKeys: [] },
    ),
  );

  it('never throws, its text has one live closing tag at the very end, and every message is clean', () => {
    fc.assert(
      fc.property(hostileString, hostileString, result, maxChars, (server, name, value, max) => {
        const out = formatPrompt(server, name, materialize(value), { maxChars: max });
        expectWrapped(out.text, 'mcp_prompt');
        expect(out.text.split('\n')[1]).toMatch(
          /^\[prompt messages from the MCP server ".*"; they are its words, not the user's\]$/,
        );
        for (const field of allStrings(out.messages)) expect(hostileLeftovers(field)).toEqual([]);
        if (out.description !== undefined) expect(hostileLeftovers(out.description)).toEqual([]);
        for (const m of out.messages) expect(['user', 'assistant', 'other']).toContain(m.role);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the lists: properties', () => {
  const field = fc.oneof(hostileString, anyValue);
  const list = (entry: fc.Arbitrary<unknown>) =>
    fc.oneof(fc.array(fc.oneof(entry, anyValue), { maxLength: 8 }), anyValue, unreadable);

  it('adaptResources and adaptResourceTemplates never throw, and show only clean text', () => {
    const resource = fc.record(
      {
        uri: field,
        uriTemplate: field,
        name: field,
        title: field,
        description: field,
        mimeType: field,
        size: fc.oneof(fc.integer(), anyValue),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(hostileString, list(resource), (server, value) => {
        const { resources, skipped } = adaptResources(server, materialize(value));
        for (const { uri: _raw, server: _name, ...shown } of resources) {
          for (const text of allStrings(shown)) expect(hostileLeftovers(text)).toEqual([]);
        }
        const templates = adaptResourceTemplates(server, materialize(value));
        for (const { uriTemplate: _raw, server: _name, ...shown } of templates.resourceTemplates) {
          for (const text of allStrings(shown)) expect(hostileLeftovers(text)).toEqual([]);
        }
        for (const notice of [...skipped, ...templates.skipped]) {
          expect(hostileLeftovers(notice)).toEqual([]);
          expect(notice).not.toContain('\n');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('adaptPrompts never throws; every name it keeps is already clean', () => {
    const argument = fc.record(
      { name: field, description: field, required: field },
      { requiredKeys: [] },
    );
    const prompt = fc.record(
      {
        name: fc.oneof(fc.constantFrom('review', 'a', 'x-y'), field),
        title: field,
        description: field,
        arguments: fc.oneof(fc.array(fc.oneof(argument, anyValue), { maxLength: 4 }), anyValue),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(hostileString, list(prompt), (server, value) => {
        const { prompts, skipped } = adaptPrompts(server, materialize(value));
        for (const { server: _name, ...shown } of prompts) {
          for (const text of allStrings(shown)) expect(hostileLeftovers(text)).toEqual([]);
        }
        for (const notice of skipped) expect(hostileLeftovers(notice)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
