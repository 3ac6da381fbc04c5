// garuda-mcp resources, read, prompts and prompt against the `library` fixture (prompts, resources,
// a template, a binary resource, hostile ones), in the OS sandbox where there is one, without a
// terminal.
import { LIBRARY_PNG, LIBRARY_URIS, hostileLeftovers } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { CONTROL } from './support/run.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

/** What is inside our own wrapper (`<mcp_… …>` … `</mcp_…>`), for the leftovers check. */
function inner(text: string, tag: string): string {
  const open = text.indexOf('>') + 1;
  const close = text.lastIndexOf(`</${tag}>`);
  expect(open).toBeGreaterThan(0);
  expect(close).toBeGreaterThan(open);
  return text.slice(open, close);
}

describe('resources and read', () => {
  it('resources: every resource and template, cleaned; a script URI is a note; --json keeps the raw URI as ASCII JSON', async () => {
    await world.userServers({ lib: fixtureEntry('library'), plain: fixtureEntry('normal') });
    const result = await world.run(['resources']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^URI\s+SERVER\s+NAME\s+TYPE\s+DESCRIPTION$/m);
    expect(result.stdout).toMatch(
      /^note:\/\/library\/readme\s+lib\s+readme\s+text\/plain\s+The readme$/m,
    );
    expect(result.stdout).toMatch(/^note:\/\/library\/logo\s+lib\s+logo\s+image\/png\s/m);
    expect(result.stdout).toMatch(/^a URI that is not shown \(SCHEME\)\s+lib\s+script\s/m);
    expect(result.stdout).not.toContain('javascript:');
    expect(result.stdout).toMatch(/^TEMPLATE\s+SERVER\s+NAME\s+TYPE\s+DESCRIPTION$/m);
    expect(result.stdout).toMatch(/^note:\/\/library\/items\/\{id\}\s+lib\s+item\s/m);
    expect(CONTROL.test(result.stdout)).toBe(false);

    const json = await world.run(['resources', 'lib', '--json']);
    expect(json.code).toBe(0);
    expect(/[^\n\u0020-\u007e]/.test(json.stdout)).toBe(false);
    const parsed = JSON.parse(json.stdout) as {
      resources: { server: string; uri: string; shownUri: string }[];
      resourceTemplates: { uriTemplate: string }[];
    };
    expect(parsed.resources.map((r) => r.uri).sort()).toEqual(Object.values(LIBRARY_URIS).sort());
    expect(parsed.resources.find((r) => r.uri === LIBRARY_URIS.script)?.shownUri).toBe(
      'a URI that is not shown (SCHEME)',
    );
    expect(parsed.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'note://library/items/{id}',
    ]);

    const none = await world.run(['resources', 'plain']);
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toBe('No resources.');
  });

  it('read: text wrapped in <mcp_resource>, binary as a note (--json: the bytes as base64), a hostile one neutralised', async () => {
    await world.userServers({ lib: fixtureEntry('library') });
    const text = await world.run(['read', 'lib', LIBRARY_URIS.readme]);
    expect(text.code).toBe(0);
    expect(text.stdout.trim()).toBe(
      `<mcp_resource server="lib" uri="${LIBRARY_URIS.readme}">\nRead me first.\n</mcp_resource>`,
    );

    const logo = await world.run(['read', 'lib', LIBRARY_URIS.logo]);
    expect(logo.code).toBe(0);
    expect(logo.stdout).toContain('[binary: image/png, 70 bytes, not shown]');
    expect(logo.stdout).not.toContain(LIBRARY_PNG);
    const logoJson = await world.run(['read', 'lib', LIBRARY_URIS.logo, '--json']);
    const parsed = JSON.parse(logoJson.stdout) as { contents: { blob?: string }[] };
    expect(parsed.contents[0]?.blob).toBe(LIBRARY_PNG);

    const hostile = await world.run(['read', 'lib', LIBRARY_URIS.hostile]);
    expect(hostile.code).toBe(0);
    expect(hostileLeftovers(inner(hostile.stdout.trim(), 'mcp_resource'))).toEqual([]);
    expect(CONTROL.test(hostile.stdout)).toBe(false);

    // A URI the template expands to is read too.
    const item = await world.run(['read', 'lib', 'note://library/items/7']);
    expect(item.code).toBe(0);
    expect(item.stdout).toContain('<mcp_resource server="lib" uri="note://library/items/7">');
  });

  it('read: a server no file has is exit 2, a URI the server cannot read exit 4, a disabled server exit 4', async () => {
    await world.userServers({
      lib: fixtureEntry('library'),
      off: { ...fixtureEntry('library'), enabled: false },
    });
    const unknown = await world.run(['read', 'lbi', LIBRARY_URIS.readme]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"lib"');

    const missing = await world.run(['read', 'lib', 'note://library/nothing-here']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('MCP server "lib"');
    expect(missing.stdout).toBe('');

    const off = await world.run(['read', 'off', LIBRARY_URIS.readme]);
    expect(off.code).toBe(4);
    expect(off.stderr).toContain('disabled');

    const usage = await world.run(['read', 'lib']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('garuda-mcp read <server> <uri>');
  });
});

describe('prompts and prompt', () => {
  it('prompts: every prompt with its arguments (optional ones marked), cleaned', async () => {
    await world.userServers({ lib: fixtureEntry('library') });
    const result = await world.run(['prompts']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^PROMPT\s+ARGUMENTS\s+DESCRIPTION$/m);
    expect(result.stdout).toMatch(
      /^lib\/review\s+code, lang\?\s+Asks for a review of a piece of code\.$/m,
    );
    expect(result.stdout).toMatch(/^lib\/hostile\s+A prompt whose words attack the client/m);
    expect(hostileLeftovers(result.stdout)).toEqual([]);
    expect(CONTROL.test(result.stdout)).toBe(false);

    const json = await world.run(['prompts', 'lib', '--json']);
    const parsed = JSON.parse(json.stdout) as {
      prompts: { name: string; arguments: { name: string; required: boolean }[] }[];
    };
    expect(parsed.prompts.find((p) => p.name === 'review')?.arguments).toEqual([
      expect.objectContaining({ name: 'code', required: true }),
      expect.objectContaining({ name: 'lang', required: false }),
    ]);
  });

  it("prompt: the messages in <mcp_prompt>, marked as the server's words; a hostile one neutralised", async () => {
    await world.userServers({ lib: fixtureEntry('library') });
    const result = await world.run(['prompt', 'lib/review', '{"code":"x = 1","lang":"Python"}']);
    expect(result.code).toBe(0);
    const text = result.stdout.trim();
    expect(text.startsWith('<mcp_prompt server="lib" name="review">\n')).toBe(true);
    expect(text).toContain("they are its words, not the user's");
    expect(text).toContain('[user]\nReview this Python:\nx = 1\n[assistant]\nI will review it.');

    const json = await world.run(['prompt', 'lib/review', '{"code":"y"}', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      prompt: 'lib/review',
      description: 'A code review',
      messages: [
        { role: 'user', text: 'Review this code:\ny' },
        { role: 'assistant', text: 'I will review it.' },
      ],
    });

    const hostile = await world.run(['prompt', 'lib/hostile']);
    expect(hostile.code).toBe(0);
    expect(hostileLeftovers(inner(hostile.stdout.trim(), 'mcp_prompt'))).toEqual([]);
    expect(hostile.stdout).toContain('[image: image/png, 70 bytes, not shown]');
    expect(CONTROL.test(hostile.stdout)).toBe(false);
  });

  it('prompt: bad arguments, an unknown prompt and a missing required argument are exit 2, nothing fetched', async () => {
    await world.userServers({ lib: fixtureEntry('library') });
    const notJson = await world.run(['prompt', 'lib/review', '{code:1}']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('The prompt arguments are not valid JSON');

    const number = await world.run(['prompt', 'lib/review', '{"code":1}']);
    expect(number.code).toBe(2);
    expect(number.stderr).toContain('"code" must be a string');

    const missing = await world.run(['prompt', 'lib/review']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('needs "code"');

    const typo = await world.run(['prompt', 'lib/reveiw']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('the server lists no such prompt');
    expect(typo.stderr).toContain('Did you mean lib/review?');
    expect(typo.stdout).toBe('');

    const bare = await world.run(['prompt', 'review']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('<server>/<prompt>');
  });

  it("a project server's prompts wait for consent: without a terminal it is declined (exit 4), --trust-project allows it", async () => {
    await world.projectServers({ theirs: fixtureEntry('library') });
    const declined = await world.run(['prompts', 'theirs']);
    expect(declined.code).toBe(4);
    expect(declined.stdout).toContain('No prompts. No server is connected');
    expect(declined.stderr).toContain('pass --trust-project');

    const allowed = await world.run(['prompts', 'theirs', '--trust-project']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^theirs\/review\s/m);
  });
});
