import { describe, expect, it } from 'vitest';
import type { McpResourceTemplate } from '@garuda/mcp-tools';
import { hostTemplates, resourceOfHostUri } from './resources.js';
import {
  matchTemplate,
  MAX_TEMPLATE_EXPRESSIONS,
  templateParts,
  templateShape,
} from './uri-template-match.js';

function template(uriTemplate: string, server = 'lib'): McpResourceTemplate {
  return {
    server,
    uriTemplate,
    shownUriTemplate: uriTemplate,
    name: 'item',
  } as McpResourceTemplate;
}

/** The host's URI for a template, with each expression replaced by the given expanded values. */
function expanded(uriTemplate: string, values: readonly string[]): string {
  const [listed] = hostTemplates([template(uriTemplate)], () => {});
  let at = 0;
  return listed!.uriTemplate.replace(/\{[^{}]*\}/g, () => values[at++] ?? '');
}

describe('templateParts', () => {
  it('splits text and expressions; a brace with no partner is text', () => {
    expect(templateParts('note://{a}/x/{+b}')).toEqual({
      literals: ['note://', '/x/', ''],
      expressions: ['{a}', '{+b}'],
    });
    expect(templateParts('a{b{c}d}e')).toEqual({ literals: ['a{b', 'd}e'], expressions: ['{c}'] });
    expect(templateParts('plain')).toEqual({ literals: ['plain'], expressions: [] });
  });
});

describe('matchTemplate', () => {
  it('gives each value between the literal pieces, the leftmost split first', () => {
    expect(matchTemplate(['n/', '/x/', ''], 'n/1/x/2/x/3')).toEqual(['1', '2/x/3']);
    expect(matchTemplate(['n/', '.', '.json'], 'n/a.b.c.json')).toEqual(['a', 'b.c']);
    expect(matchTemplate(['n/'], 'n/')).toEqual([]);
    expect(matchTemplate(['n/'], 'n/x')).toBeUndefined();
    // The last piece may not overlap the middle one.
    expect(matchTemplate(['', 'ab', 'ba'], 'xaba')).toBeUndefined();
    expect(matchTemplate(['', 'ab', 'ba'], 'xabba')).toEqual(['x', '']);
    expect(matchTemplate(['n/', '/'], 'm/1/')).toBeUndefined();
  });
});

describe('the gateway offers only templates it can match in linear time', () => {
  it('keeps a template whose expressions have text between them, and reads its expansion', () => {
    const offered = template('note://library/{dir}/items/{id}.txt');
    const uri = expanded(offered.uriTemplate, ['a%2Fb', '42']);
    expect(resourceOfHostUri(uri, [], [offered])).toEqual({
      server: 'lib',
      uri: 'note://library/a%2Fb/items/42.txt',
    });
  });

  it('ReDoS: a template of adjacent expressions (note://{a}{b}…{l}) is not offered, nor read', () => {
    const letters = 'abcdefghijkl'.split('');
    const hostile = template(`note://${letters.map((letter) => `{${letter}}`).join('')}`);
    const refused: string[] = [];
    expect(hostTemplates([hostile], (_, reason) => refused.push(reason))).toEqual([]);
    expect(refused).toEqual([expect.stringContaining('no text between them')]);
    // The URI that made a backtracking pattern run for minutes: nothing, at once.
    const uri = `garuda://lib/note%3A%2F%2F${'a'.repeat(50_000)}`;
    expect(resourceOfHostUri(`${uri}\u0000`, [], [hostile])).toBeUndefined();
  });

  it('refuses more expressions than the bound, and templates too long', () => {
    const many = Array.from({ length: MAX_TEMPLATE_EXPRESSIONS + 1 }, (_, i) => `{v${i}}`);
    expect(templateShape(`n://${many.join('/')}`)).toMatchObject({ ok: false });
    expect(templateShape(`n://${many.slice(1).join('/')}`)).toMatchObject({ ok: true });
    expect(templateShape(`n://${'x'.repeat(5000)}{a}`)).toMatchObject({ ok: false });
    expect(templateShape('n://\ud800{a}')).toEqual({
      ok: false,
      reason: 'its text cannot be written in a URI',
    });
  });

  it("ReDoS: a URI made of the template's own pieces, 50 000 characters long, is matched in a few scans", () => {
    // Pieces that repeat and nearly match make a backtracking matcher try every split.
    const pieces = [...Array.from({ length: MAX_TEMPLATE_EXPRESSIONS - 2 }, () => '/a'), '/c'];
    const offered = template(`n://{v}${pieces.map((piece, i) => `${piece}{v${i}}`).join('')}/b`);
    const text = `garuda://lib/n%3A%2F%2F${'%2Fa'.repeat(12_500)}%2Fb`;
    let scans = 0;
    const original = String.prototype.indexOf;
    // Counts the searches the matcher makes (each is one forward scan from where the last ended).
    String.prototype.indexOf = function (this: string, ...args: Parameters<string['indexOf']>) {
      scans += 1;
      return original.apply(this, args);
    };
    try {
      expect(resourceOfHostUri(text, [], [offered])).toBeUndefined();
    } finally {
      String.prototype.indexOf = original;
    }
    expect(scans).toBeLessThanOrEqual(2 * MAX_TEMPLATE_EXPRESSIONS);
  });
});
