// garuda-mcp serve: consent, changed tools and sign-ins through the garuda_review tool, for hosts
// that can ask (elicitation) and hosts that cannot (see serve.test.ts for the set-up).
import { execFile } from 'node:child_process';
import { startOAuthFixture, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { FETCH_BROWSER } from './support/paths.js';
import { hostsPerTest, textOf, toolsWhen, type Answer } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

describe('garuda-mcp serve: consent and changed tools through garuda_review', () => {
  const callOrConsent =
    (consent: string): Answer =>
    (message) => ({
      action: 'accept',
      decision: message.includes('before this call runs') ? 'Allow once' : consent,
    });

  it('a project server waits for the review; allowed there and remembered, it starts', async () => {
    await world.projectServers({ theirs: fixtureEntry('dynamic', 'garuda-serve-review') });
    const first = await host([], callOrConsent('Allow and remember'));
    expect(await toolsWhen(first.client, (names) => names.length > 0)).toEqual(['garuda_review']);
    const [review] = (await first.client.listTools()).tools;
    expect(review?.description).toContain('project server "theirs" asks to start');
    const reviewed = await first.client.callTool({ name: 'garuda_review', arguments: {} });
    expect(first.questions).toHaveLength(1);
    expect(first.questions[0]).toContain('The project file asks to start MCP server "theirs"');
    expect(first.questions[0]).toContain('sandbox');
    expect(textOf(reviewed)).toMatch(
      /MCP server "theirs": allowed; it is connected with \d+ tools/,
    );
    const after = await toolsWhen(first.client, (names) => names.includes('theirs__add_tool'));
    expect(after).not.toContain('garuda_review');

    // Remembered: a new gateway starts it without a question.
    const second = await host([], () => ({ action: 'decline' }));
    await toolsWhen(second.client, (names) => names.includes('theirs__add_tool'));
    expect(second.questions).toEqual([]);
  });

  it('holds back the tools a trusted project server adds while it runs until the review allows them', async () => {
    await world.projectServers({ theirs: fixtureEntry('dynamic', 'garuda-serve-held') });
    const trusting = await host([], callOrConsent('Allow and remember'));
    await toolsWhen(trusting.client, (names) => names.includes('garuda_review'));
    await trusting.client.callTool({ name: 'garuda_review', arguments: {} });
    await trusting.client.close();

    const { client, questions, transport } = await host(
      [],
      callOrConsent('Allow for this session'),
    );
    await toolsWhen(client, (names) => names.includes('theirs__add_tool'));
    const added = await client.callTool({ name: 'theirs__add_tool', arguments: {} });
    expect(added.isError).toBeFalsy();
    // The change reaches the host only as the review tool: the added tool is not offered.
    const held = await toolsWhen(client, (names) => names.includes('garuda_review'));
    expect(held).not.toContain('theirs__added');
    expect(held).toContain('theirs__add_tool');
    await waitFor(() => transport.stderrTail().join('\n').includes('wait for your answer'), {
      timeoutMs: 60_000,
    });
    const reviewed = await client.callTool({ name: 'garuda_review', arguments: {} });
    const asked = questions.at(-1) ?? '';
    expect(asked).toContain('The tools of MCP server "theirs" changed');
    expect(asked).toContain('+ added');
    expect(textOf(reviewed)).toContain('the changed tools of "theirs": allowed');
    const names = await toolsWhen(
      client,
      (list) => list.includes('theirs__added') && !list.includes('garuda_review'),
    );
    expect(names).toContain('theirs__add_tool');
  });

  it('asks at most five questions per review; the rest wait for the next one', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    await world.projectServers(
      Object.fromEntries(names.map((n) => [n, fixtureEntry('normal', `garuda-serve-many-${n}`)])),
    );
    const { client, questions } = await host([], () => ({ action: 'accept', decision: 'Deny' }));
    await toolsWhen(client, (list) => list.includes('garuda_review'));
    const [review] = (await client.listTools()).tools;
    for (const n of names) expect(review?.description).toContain(`project server "${n}"`);
    const first = await client.callTool({ name: 'garuda_review', arguments: {} });
    expect(questions).toHaveLength(5);
    expect(textOf(first).match(/not allowed \(you said no\)/g)).toHaveLength(5);
    expect(textOf(first)).toContain('1 more wait: call garuda_review again');
    const second = await client.callTool({ name: 'garuda_review', arguments: {} });
    expect(questions).toHaveLength(6);
    expect(textOf(second)).toContain('MCP server "f": not allowed');
    expect(await toolsWhen(client, (list) => !list.includes('garuda_review'))).toEqual([]);
  });

  it('tells a host that cannot ask which command answers what waits', async () => {
    await world.projectServers({ theirs: fixtureEntry('normal', 'garuda-serve-no-ask') });
    const { client } = await host();
    await toolsWhen(client, (names) => names.includes('garuda_review'));
    const result = await client.callTool({ name: 'garuda_review', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('project server "theirs" asks to start');
    expect(textOf(result)).toContain('`garuda-mcp status`');
    expect(textOf(result)).toContain('--trust-project');
    // --approvals rules never lists it.
    const rules = await host(['--approvals', 'rules']);
    expect((await rules.client.listTools()).tools).toEqual([]);
  });
});

describe('garuda-mcp serve: a sign-in through garuda_review (URL elicitation)', () => {
  it('hands the sign-in page to a host that opens pages; once signed in, the server connects', async () => {
    const oauth = await startOAuthFixture();
    try {
      await world.userServers({ linear: { url: oauth.url.href } });
      const opened: string[] = [];
      const { client, questions } = await host(
        [],
        (message, params) => {
          if (params.mode !== 'url') return { action: 'accept', decision: 'Allow once' };
          // The host's browser: the stand-in follows the sign-in page back to the callback.
          opened.push(params.url ?? '');
          execFile(process.execPath, [FETCH_BROWSER, params.url ?? '']);
          return { action: 'accept' };
        },
        { pages: true },
      );
      const waiting = await toolsWhen(client, (names) => names.includes('garuda_review'));
      expect(waiting).toEqual(['garuda_review']);
      const reviewed = await client.callTool({ name: 'garuda_review', arguments: {} });
      expect(opened).toHaveLength(1);
      expect(new URL(opened[0]!).origin).toBe(oauth.url.origin);
      expect(questions[0]).toContain('garuda-mcp asks you to sign in');
      expect(questions[0]).toContain('MCP server "linear" needs a sign-in');
      expect(textOf(reviewed)).toMatch(
        /the sign-in to "linear": done; it is connected with \d+ tools/,
      );
      expect(oauth.counts.tokensIssued).toBe(1);
      const names = await toolsWhen(client, (list) => list.includes('linear__echo'));
      expect(names).not.toContain('garuda_review');
      const echoed = await client.callTool({ name: 'linear__echo', arguments: { text: 'remote' } });
      expect(textOf(echoed)).toContain('remote');
    } finally {
      await oauth.close();
    }
  });

  it('a host that opens no pages is told to run garuda-mcp login', async () => {
    const oauth = await startOAuthFixture();
    try {
      await world.userServers({ linear: { url: oauth.url.href } });
      const { client } = await host([], () => ({ action: 'accept', decision: 'Allow once' }));
      await toolsWhen(client, (names) => names.includes('garuda_review'));
      const reviewed = await client.callTool({ name: 'garuda_review', arguments: {} });
      expect(textOf(reviewed)).toContain('run `garuda-mcp login linear` in a terminal');
      expect(oauth.counts.tokensIssued).toBe(0);
    } finally {
      await oauth.close();
    }
  });
});
