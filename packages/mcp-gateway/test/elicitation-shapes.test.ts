// A server's form reaches the host through the gateway in the shape the server wrote it (SEP-1330:
// plain `enum`, titled `oneOf`/`anyOf`, legacy `enumNames`; single and multiple) with its
// defaults (SEP-1034), every text cleaned; the host's answer is checked against the form before
// the server gets it. Real parts: the `asker` fixture behind a manager, the gateway over loopback
// HTTP, real SDK clients of both eras as hosts.
import { FIXTURE_SERVER, allStrings, hostileLeftovers } from '@garuda/test-utils';
import type { Prompter } from '@garuda/mcp-manager';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpGateway } from '../src/index.js';
import { servedGateway } from './support/served.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The gateway over HTTP in front of the `asker` fixture; every call runs without a question. */
async function start(): Promise<{ endpoint: HttpGateway; notices: string[] }> {
  const notices: string[] = [];
  const rules: Prompter = {
    consent: () => 'deny',
    notice: (text) => notices.push(text),
    approveCall: () => true,
  };
  const servers = { asker: { command: process.execPath, args: [FIXTURE_SERVER, 'asker'] } };
  // Forms reach a host only when the gateway asks hosts; every call itself runs unasked.
  const { endpoint } = await servedGateway(
    servers,
    rules,
    { approvals: 'elicit', allowEveryCall: true },
    cleanups,
  );
  return { endpoint, notices };
}

type Schema = { properties: Record<string, Record<string, unknown>> };

/** A host of `era` that records each form's schema and answers it with `answer`. */
async function host(
  endpoint: HttpGateway,
  era: '2025' | '2026',
  answer: Record<string, unknown>,
): Promise<{ client: Client; schemas: Schema[] }> {
  const schemas: Schema[] = [];
  const client = new Client(
    { name: 'forms-host', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    if (request.params.mode !== 'url') {
      schemas.push(request.params.requestedSchema as unknown as Schema);
    }
    return { action: 'accept', content: answer as Record<string, string> };
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, schemas };
}

/** What the fixture says the server got back: `answer: <json>`. */
function serverGot(result: { content?: unknown }): string {
  return JSON.stringify(result.content);
}

/** Every field the `all` form asks, answered as it should be. */
const GOOD_ANSWER = {
  name: 'Grace',
  email: 'grace@example.com',
  age: 40,
  colour: 'blue',
  size: 'l',
  plan: 'b',
  toppings: ['ham', 'olives'],
  days: ['tue'],
};

describe.each(['2025', '2026'] as const)('a server form through the gateway (%s host)', (era) => {
  it('keeps each enum shape and every default as the server wrote them', async () => {
    const { endpoint } = await start();
    const { client, schemas } = await host(endpoint, era, GOOD_ANSWER);
    const result = await client.callTool({ name: 'asker__ask_form', arguments: { form: 'all' } });
    expect(schemas).toHaveLength(1);
    const fields = schemas[0]?.properties ?? {};
    // Untitled single choice: a plain `enum`, no oneOf nor enumNames.
    expect(fields.colour).toEqual({
      type: 'string',
      title: 'Colour',
      enum: ['red', 'green', 'blue'],
      default: 'green',
    });
    // Titled single choice: `oneOf` of const/title, no enum.
    expect(fields.size).toEqual({
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'm', title: 'Medium' },
        { const: 'l', title: 'Large' },
      ],
      default: 'm',
    });
    // Legacy titled: `enum` with `enumNames` of the same length.
    expect(fields.plan).toEqual({
      type: 'string',
      title: 'Plan',
      enum: ['a', 'b'],
      enumNames: ['Plan A', 'Plan B'],
    });
    // Untitled multiple choice: `items.enum` of strings.
    expect(fields.toppings).toEqual({
      type: 'array',
      title: 'Toppings',
      items: { type: 'string', enum: ['cheese', 'ham', 'olives'] },
      minItems: 1,
      maxItems: 2,
      default: ['cheese'],
    });
    // Titled multiple choice: `items.anyOf` of const/title.
    expect(fields.days).toEqual({
      type: 'array',
      title: 'Days',
      items: {
        anyOf: [
          { const: 'mon', title: 'Monday' },
          { const: 'tue', title: 'Tuesday' },
        ],
      },
      default: ['mon'],
    });
    // SEP-1034: string, integer, number and boolean defaults.
    expect(fields.name).toMatchObject({ type: 'string', default: 'Ada' });
    expect(fields.age).toMatchObject({ type: 'integer', default: 36 });
    expect(fields.score).toMatchObject({ type: 'number', default: 0.5 });
    expect(fields.subscribe).toMatchObject({ type: 'boolean', default: true });
    // The legacy choice is answered with its enum value, which the server gets as it wrote it.
    expect(serverGot(result)).toContain('\\"plan\\":\\"b\\"');
    expect(serverGot(result)).toContain('\\"toppings\\":[\\"ham\\",\\"olives\\"]');
  });

  it("cleans a hostile form's options in their shape, and refuses an answer outside them", async () => {
    const { endpoint, notices } = await start();
    // `Plan B` is the legacy choice's name, not its value: it does not fit the form.
    const { client, schemas } = await host(endpoint, era, { ...GOOD_ANSWER, plan: 'Plan B' });
    const refused = await client.callTool({
      name: 'asker__ask_form',
      arguments: { form: 'all' },
    });
    expect(serverGot(refused)).toContain('decline');
    expect(serverGot(refused)).not.toContain('Plan B');
    expect(notices.join('\n')).toContain('"Plan" must be one of its options');

    await client.callTool({ name: 'asker__ask_form', arguments: { form: 'hostile' } });
    const pick = schemas[1]?.properties.pick;
    expect(pick).toMatchObject({ type: 'string', title: 'Pick' });
    expect(pick?.oneOf).toBeUndefined();
    expect(Array.isArray(pick?.enum) && pick.enum).toHaveLength(2);
    expect(hostileLeftovers(allStrings(schemas[1]).join('\n'))).toEqual([]);
  });
});
