// Prompts and resources through the manager, against the `library` fixture: listed, read and got
// cleaned and wrapped; prompts pinned like tools (a user server's change announced, a project
// server's held back until the user allows it); list changes told through onChange.
import { LIBRARY_URIS, caught, hostileLeftovers } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { CallFailedError, InvalidOptionsError, UnknownServerError } from '../src/index.js';
import { Changes, HoldingPrompter, fixture, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** The text inside a `<mcp_resource>` or `<mcp_prompt>` wrapper. */
function inside(text: string, tag: string): string {
  const lines = text.split('\n');
  expect(lines[0]).toMatch(new RegExp(`^<${tag} `));
  expect(lines.at(-1)).toBe(`</${tag}>`);
  return lines.slice(1, -1).join('\n');
}

describe('resources', () => {
  it('lists resources and templates, reads text, binary and hostile contents cleaned and wrapped', async () => {
    const { mcp } = await ws.startUserServers({ lib: fixture('library', ws.mark) });
    const resources = mcp.resources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(
      Object.values(LIBRARY_URIS).sort(),
    );
    const script = resources.find((resource) => resource.uri === LIBRARY_URIS.script);
    expect(script?.shownUri).not.toContain('javascript');
    expect(script?.uriRefused).toBeDefined();
    expect(mcp.resourceTemplates().map((template) => template.uriTemplate)).toEqual([
      'note://library/items/{id}',
    ]);

    const readme = await mcp.readResource('lib', LIBRARY_URIS.readme);
    expect(readme.text).toBe(
      `<mcp_resource server="lib" uri="${LIBRARY_URIS.readme}">\nRead me first.\n</mcp_resource>`,
    );
    const logo = await mcp.readResource('lib', LIBRARY_URIS.logo);
    expect(inside(logo.text, 'mcp_resource')).toContain('image/png, 70 bytes, not shown');
    expect(logo.contents[0]).toMatchObject({ kind: 'blob', bytes: 70, mimeType: 'image/png' });

    const hostile = await mcp.readResource('lib', LIBRARY_URIS.hostile);
    expect(hostileLeftovers(inside(hostile.text, 'mcp_resource'))).toEqual([]);

    const item = await mcp.readResource('lib', 'note://library/items/42');
    expect(inside(item.text, 'mcp_resource')).toBe('item 42');
    expect(await caught(() => mcp.readResource('lib', ''))).toBeInstanceOf(InvalidOptionsError);
  });

  it('a resource added at runtime is told through onChange and listed', async () => {
    const changes = new Changes();
    const { mcp } = await ws.startUserServers(
      { lib: fixture('library', ws.mark) },
      { onChange: changes.onChange },
    );
    const before = changes.seen.length;
    await mcp.call('mcp__lib__add_resource', { uri: 'note://library/new', text: 'fresh' });
    await changes.until(before + 1);
    expect(changes.seen.slice(before)).toContainEqual({ server: 'lib', kind: 'resources' });
    expect(mcp.resources().map((resource) => resource.uri)).toContain('note://library/new');
    const read = await mcp.readResource('lib', 'note://library/new');
    expect(inside(read.text, 'mcp_resource')).toBe('fresh');
  });
});

describe('resource subscriptions', () => {
  for (const era of ['2026-07-28', 'legacy'] as const) {
    it(`${era}: updates of a subscribed URI reach onChange, coalesced; others are dropped; unsubscribe ends them`, async () => {
      const changes = new Changes();
      const env = era === 'legacy' ? { env: { FIXTURE_ERA: 'legacy' } } : {};
      const { mcp } = await ws.startUserServers(
        { lib: fixture('library', ws.mark, env) },
        { onChange: changes.onChange },
      );
      const updates = () =>
        changes.seen.filter((change) => change.kind === 'resource').map((change) => change.uri);
      await mcp.subscribeResource('lib', LIBRARY_URIS.readme);
      // Twice is nothing new (no second request, no second stream).
      await mcp.subscribeResource('lib', LIBRARY_URIS.readme);
      // An update nobody asked for is dropped: a server cannot make the host hear of it.
      await mcp.call('mcp__lib__touch_resource', { uri: LIBRARY_URIS.hostile });
      // A flood of 500 updates reaches the host as a few, not 500.
      await mcp.call('mcp__lib__touch_resource', { uri: LIBRARY_URIS.readme, times: 500 });
      await changes.until(changes.seen.length + 1);
      const seen = updates();
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(seen.length).toBeLessThan(50);
      expect(new Set(seen)).toEqual(new Set([LIBRARY_URIS.readme]));
      // The server's own URI comes with it, to match the subscription with (not to show).
      expect(changes.seen.find((change) => change.kind === 'resource')?.resourceUri).toBe(
        LIBRARY_URIS.readme,
      );

      await mcp.unsubscribeResource('lib', LIBRARY_URIS.readme);
      const after = changes.seen.length;
      await mcp.call('mcp__lib__touch_resource', { uri: LIBRARY_URIS.readme });
      // A marker that does reach the host: an added resource; nothing of the readme before it.
      await mcp.call('mcp__lib__add_resource', { uri: 'note://library/marker' });
      await changes.until(after + 1);
      expect(changes.seen.slice(after)).toEqual([{ server: 'lib', kind: 'resources' }]);
    });
  }

  it('a server that offers no subscriptions, an unknown server and a bad URI are refused clearly', async () => {
    const { mcp } = await ws.startUserServers({
      lib: fixture('library', ws.mark),
      plain: fixture('normal', ws.mark),
    });
    const none = await caught(() => mcp.subscribeResource('plain', 'note://x'));
    expect(none).toBeInstanceOf(CallFailedError);
    expect((none as Error).message).toContain('offers no resource subscriptions');
    expect(await caught(() => mcp.subscribeResource('lib', ''))).toBeInstanceOf(
      InvalidOptionsError,
    );
    expect(await caught(() => mcp.subscribeResource('nope', 'note://x'))).toBeInstanceOf(
      UnknownServerError,
    );
    // Unsubscribing from what is not subscribed sends nothing and is no error.
    await mcp.unsubscribeResource('lib', LIBRARY_URIS.readme);
  });
});

describe('prompts', () => {
  it('lists prompts cleaned and gets their messages marked as the server’s words', async () => {
    const { mcp } = await ws.startUserServers({ lib: fixture('library', ws.mark) });
    const prompts = mcp.prompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['hostile', 'review']);
    expect(hostileLeftovers(prompts[0]?.description ?? '')).toEqual([]);
    expect(prompts[1]?.arguments).toEqual([
      { name: 'code', description: 'The code', required: true },
      { name: 'lang', description: 'Its language', required: false },
    ]);

    const review = await mcp.getPrompt('lib', 'review', { code: 'x = 1' });
    const body = inside(review.text, 'mcp_prompt');
    expect(body.split('\n')[0]).toContain('MCP server "lib"');
    expect(body).toContain('[user]\nReview this code:\nx = 1');
    expect(review.messages.map((message) => message.role)).toEqual(['user', 'assistant']);

    const hostile = await mcp.getPrompt('lib', 'hostile');
    expect(hostileLeftovers(inside(hostile.text, 'mcp_prompt'))).toEqual([]);
    expect(hostile.text).toContain('image/png');

    expect(await caught(() => mcp.getPrompt('lib', 'review'))).toBeInstanceOf(InvalidOptionsError);
    expect(await caught(() => mcp.getPrompt('lib', 'review', { code: 5 }))).toBeInstanceOf(
      InvalidOptionsError,
    );
    const unknown = await caught(() => mcp.getPrompt('lib', 'nope'));
    expect(unknown).toBeInstanceOf(CallFailedError);
    expect((unknown as Error).message).toContain('lists no such prompt');
  });

  it("a user server's changed prompt is announced and used; a removed one answers cleanly", async () => {
    const changes = new Changes();
    const { mcp, prompter } = await ws.startUserServers(
      { lib: fixture('library', ws.mark) },
      { onChange: changes.onChange },
    );
    const before = changes.seen.length;
    await mcp.call('mcp__lib__change_prompt', { name: 'review', description: 'Now different.' });
    await changes.until(before + 1);
    expect(changes.seen.slice(before)).toContainEqual({ server: 'lib', kind: 'prompts' });
    expect(mcp.prompts().find((prompt) => prompt.name === 'review')?.description).toBe(
      'Now different.',
    );
    expect(prompter.notices.join('\n')).toContain('changed: prompt review (description)');

    await mcp.call('mcp__lib__remove_prompt', { name: 'review' });
    await changes.until(before + 2);
    const gone = await caught(() => mcp.getPrompt('lib', 'review', { code: 'x' }));
    expect((gone as Error).message).toContain('removed it while it ran');
  });

  it("a project server's changed prompt is held back until the user allows it", async () => {
    await ws.projectServers({ lib: fixture('library', ws.mark) });
    const changes = new Changes();
    const prompter = new HoldingPrompter();
    prompter.answer = 'remember';
    const mcp = ws.manager(prompter, { onChange: changes.onChange });
    await mcp.start();
    expect(mcp.prompts().map((prompt) => prompt.name)).toEqual(['hostile', 'review']);

    const asked = prompter.asked();
    await mcp.call('mcp__lib__change_prompt', { name: 'review', description: 'Exfiltrate.' });
    const request = await asked;
    expect(request.toolChanges?.changed.map((change) => change.name)).toEqual(['prompt review']);
    expect(mcp.prompts().map((prompt) => prompt.name)).toEqual(['hostile']);
    const held = await caught(() => mcp.getPrompt('lib', 'review', { code: 'x' }));
    expect((held as Error).message).toContain('held back until the user allows the change');

    const seen = changes.seen.length;
    prompter.reply('once');
    await changes.until(seen + 1);
    expect(mcp.prompts().find((prompt) => prompt.name === 'review')?.description).toBe(
      'Exfiltrate.',
    );
  });
});
