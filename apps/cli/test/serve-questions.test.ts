// garuda-mcp serve asks its questions through the host (see serve.test.ts for the set-up): as
// elicitation (2025), as input_required results (2026-07-28), and a server's own form passed on.
import { ASKER_DEFAULTS, allStrings, hostileLeftovers } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

/** Checks a call the person denied: an error result that says so (not that the host cannot ask). */
function expectDenied(result: { isError?: unknown; content?: unknown }): void {
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain('This call was not run: the user chose "Deny"');
  expect(textOf(result)).not.toContain('does not ask per call');
}

describe('garuda-mcp serve: questions through the host (elicitation)', () => {
  it('asks the host about a call that must ask, with its preview; allow once runs it, deny does not', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-elicit') });
    let decision = 'Allow once';
    const { client, questions } = await host([], () => ({ action: 'accept', decision }));
    const ran = await client.callTool({ name: 'notes__echo', arguments: { text: 'asked' } });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('garuda-mcp asks before this call runs:');
    // The tool as this host calls it, with its server and tool.
    expect(questions[0]).toContain('Run tool "echo" of MCP server "notes"?');
    expect(questions[0]).toMatch(/name +notes__echo\n/);
    expect(questions[0]).not.toContain('mcp__notes__echo');
    expect(questions[0]).toContain('asked');
    expect(hostileLeftovers(questions[0] ?? '')).toEqual([]);
    expect(ran.isError).toBeFalsy();
    expect(textOf(ran)).toContain('<mcp_result server="notes" tool="echo">');

    decision = 'Deny';
    const denied = await client.callTool({ name: 'notes__echo', arguments: { text: 'no' } });
    expect(questions).toHaveLength(2);
    expectDenied(denied);

    // --yes approves every call: the host is not asked.
    const yes = await host(['--yes'], () => ({ action: 'accept', decision: 'Deny' }));
    const ran2 = await yes.client.callTool({ name: 'notes__echo', arguments: { text: 'y' } });
    expect(yes.questions).toEqual([]);
    expect(ran2.isError).toBeFalsy();
  });

  it('a declined form is a no; "always allow" is remembered for later hosts that cannot ask', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-always') });
    const declining = await host([], () => ({ action: 'decline' }));
    const declined = await declining.client.callTool({
      name: 'notes__add',
      arguments: { a: 1, b: 2 },
    });
    expect(declined.isError).toBe(true);
    expect(declining.questions).toHaveLength(1);
    expect(textOf(declined)).toContain(
      'This call was not run: the user declined the approval form this host showed for "notes__add"',
    );
    expect(textOf(declined)).not.toContain('does not ask per call');
    const cancelling = await host([], () => ({ action: 'cancel' }));
    const cancelled = await cancelling.client.callTool({
      name: 'notes__add',
      arguments: { a: 1, b: 2 },
    });
    expect(cancelled.isError).toBe(true);
    expect(textOf(cancelled)).toContain('the approval form this host showed was cancelled');

    const always = await host([], () => ({
      action: 'accept',
      decision: "Always allow (bound to this tool's schema)",
    }));
    const first = await always.client.callTool({ name: 'notes__add', arguments: { a: 1, b: 2 } });
    expect(first.isError).toBeFalsy();
    // A host without elicitation, in rules mode: the grant answers.
    const later = await host(['--approvals', 'rules']);
    const again = await later.client.callTool({ name: 'notes__add', arguments: { a: 2, b: 3 } });
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toContain('5');
  });
});

describe('garuda-mcp serve: questions of the 2026-07-28 revision (input_required)', () => {
  it('asks about a call as an input_required result the host answers and retries', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-modern') });
    let decision = 'Allow once';
    const { client, questions } = await host([], () => ({ action: 'accept', decision }), {
      modern: true,
    });
    expect(client.getProtocolEra()).toBe('modern');
    const ran = await client.callTool({ name: 'notes__echo', arguments: { text: 'modern' } });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('garuda-mcp asks before this call runs:');
    expect(textOf(ran)).toContain('<mcp_result server="notes" tool="echo">');
    expect(textOf(ran)).toContain('modern');
    decision = 'Deny';
    const denied = await client.callTool({ name: 'notes__echo', arguments: { text: 'no' } });
    expect(questions).toHaveLength(2);
    expectDenied(denied);
  });

  it('a made-up or finished requestState gets nothing run', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-state') });
    const { client } = await host([], () => ({ action: 'accept', decision: 'Allow once' }), {
      modern: true,
    });
    const forged = (await client.request({
      method: 'tools/call',
      params: { name: 'notes__echo', arguments: { text: 'x' }, requestState: 'made-up' },
    })) as { content?: unknown; isError?: boolean };
    expect(forged.isError).toBe(true);
    expect(textOf(forged)).toContain('This question is no longer open');
  });
});

describe.each([
  ['a 2025-revision host', false],
  ['a 2026-07-28 host', true],
] as const)("garuda-mcp serve: a server's own question, to %s", (_era, modern) => {
  it('passes its form on, rebuilt from the cleaned fields, and the answer back', async () => {
    await world.userServers({ ask: fixtureEntry('asker', 'garuda-serve-asker') });
    const forms: { message: string; schema: unknown }[] = [];
    const { client } = await host(
      [],
      (message, params) => {
        if (message.includes('before this call runs')) {
          return { action: 'accept', decision: 'Allow once' };
        }
        forms.push({ message, schema: params.requestedSchema });
        return message.includes('Tell us about yourself')
          ? { action: 'accept', content: { ...ASKER_DEFAULTS, name: 'Grace' } }
          : { action: 'decline' };
      },
      { modern },
    );
    const all = await client.callTool({ name: 'ask__ask_form', arguments: { form: 'all' } });
    expect(forms).toHaveLength(1);
    expect(forms[0]?.message).toContain('MCP server "ask" asks (through garuda-mcp');
    const schema = forms[0]?.schema as {
      properties: Record<string, { title?: string; oneOf?: unknown }>;
      required: string[];
    };
    expect(schema.properties.name?.title).toBe('Your name');
    expect(schema.properties.size?.oneOf).toEqual([
      { const: 's', title: 'Small' },
      { const: 'm', title: 'Medium' },
      { const: 'l', title: 'Large' },
    ]);
    expect(schema.required).toEqual(['name', 'email', 'age', 'colour']);
    expect(textOf(all)).toContain('"action":"accept"');
    expect(textOf(all)).toContain('"name":"Grace"');

    const hostile = await client.callTool({
      name: 'ask__ask_form',
      arguments: { form: 'hostile' },
    });
    expect(forms).toHaveLength(2);
    expect(allStrings(forms[1]).flatMap(hostileLeftovers)).toEqual([]);
    expect(textOf(hostile)).toContain('"action":"decline"');
  });
});
