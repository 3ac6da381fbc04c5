// garuda-mcp serve, driven as a host drives it: a real SDK Client starts the built CLI over stdio
// (through our own ProcessTransport) and lists and calls the tools of the fixture servers behind
// it. What is checked: names, cleaned definitions, framed results, refusals that name the
// command that allows the call, project consent without a terminal, and no process left once
// the host goes away.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '@garuda/mcp-transport';
import {
  allStrings,
  ASKER_DEFAULTS,
  hostileLeftovers,
  pidsWith,
  startOAuthFixture,
  waitFor,
} from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditCalls,
  BIN,
  callRound,
  FETCH_BROWSER,
  fixtureEntry,
  framedJson,
  osSandboxed,
  questionOf,
  questionsStayWithTheirCalls,
  worldPerTest,
  type CliWorld,
} from './support/index.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

const hosts: Client[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})));
});

/** What a test host answers a question with. */
interface Reply {
  action: 'accept' | 'decline' | 'cancel';
  decision?: string;
  content?: Record<string, unknown>;
}

/** What a test host answers a question with, given the question's message and its request. */
type Answer = (
  message: string,
  params: { mode?: string; url?: string; requestedSchema?: unknown },
) => Reply | Promise<Reply>;

/**
 * A host: starts `garuda-mcp serve args…` in the project and connects to it. With `answer`, it
 * declares form elicitation (and `url` with `pages`) and answers each question with it (the
 * questions are kept). `modern` speaks the 2026-07-28 revision, where a question is an
 * `input_required` result the SDK client answers and retries.
 */
async function host(
  args: readonly string[] = [],
  answer?: Answer,
  options: { readonly modern?: boolean; readonly pages?: boolean } = {},
) {
  const transport = new ProcessTransport({
    command: process.execPath,
    args: [BIN, 'serve', ...args],
    env: world.env(),
    cwd: world.root,
  });
  const questions: string[] = [];
  const client = new Client(
    { name: 'test-host', version: '1.0.0' },
    {
      ...(answer === undefined
        ? {}
        : { capabilities: { elicitation: { form: {}, ...(options.pages ? { url: {} } : {}) } } }),
      ...(options.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = request.params.message;
      questions.push(message);
      const { action, decision, content } = await answer(
        message,
        request.params as { mode?: string; url?: string; requestedSchema?: unknown },
      );
      if (action !== 'accept') return { action };
      if (request.params.mode === 'url') return { action };
      return {
        action,
        content: (content ?? { decision: decision ?? '' }) as Record<string, string>,
      };
    });
  }
  hosts.push(client);
  await client.connect(transport);
  return { client, transport, questions };
}

/** Resolves when the host's tool list (listed again at each list_changed) satisfies `check`. */
function toolsWhen(
  client: Client,
  check: (names: readonly string[]) => boolean,
): Promise<readonly string[]> {
  return new Promise((resolve) => {
    const look = async () => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      if (check(names)) resolve(names);
    };
    client.setNotificationHandler('notifications/tools/list_changed', look);
    void look();
  });
}

function textOf(result: { content?: unknown }): string {
  const blocks = (result.content ?? []) as { type: string; text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

describe('garuda-mcp serve', () => {
  it('lists the tools of every server as <server>__<tool> and calls them (--approvals host)', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-list') });
    const { client } = await host(['--approvals', 'host']);
    expect(client.getServerVersion()?.name).toBe('garuda-mcp');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('notes__echo');
    expect(names).toContain('notes__add');
    const echo = tools.find((tool) => tool.name === 'notes__echo');
    expect(echo?.description).toMatch(/^\[From MCP server "notes"/);
    const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      /^<mcp_result server="notes" tool="echo">\n[\s\S]*hi[\s\S]*<\/mcp_result>$/,
    );
    const unknown = await client.callTool({ name: 'notes__nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No tool "notes__nope" behind this gateway');
  });

  it('refuses a call nothing allowed beforehand, naming the command that allows it; --allow runs it', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-rules') });
    // The gateway's own home and root (a root with a space, quoted for a shell).
    const spaced = path.join(world.root, 'my project');
    await mkdir(spaced);
    const refused = await host(['--root', spaced]);
    const result = await refused.client.callTool({ name: 'notes__echo', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('This call was not run: nobody was asked');
    expect(text).toContain(
      `\`garuda-mcp call notes/echo --home ${world.home} --root '${spaced}'\``,
    );
    expect(text).toContain('`--allow mcp.notes.echo`');
    expect(text).not.toContain('<mcp_result');

    const allowed = await host(['--allow', 'mcp.notes.echo']);
    const ran = await allowed.client.callTool({ name: 'notes__echo', arguments: { text: 'x' } });
    expect(ran.isError).toBeFalsy();
    expect(textOf(ran)).toContain('<mcp_result server="notes" tool="echo">');
  });

  it('starts a project server only when trusted beforehand or with --trust-project', async () => {
    await world.projectServers({ theirs: fixtureEntry('normal', 'garuda-serve-project') });
    const untrusted = await host(['--approvals', 'host']);
    expect((await untrusted.client.listTools()).tools).toEqual([]);
    const trusted = await host(['--approvals', 'host', '--trust-project']);
    const names = (await trusted.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('theirs__echo');
  });

  it("name squatting: with --trust-project, my_notes__env answers from your my_notes, never the project's my-notes; status, doctor and the model are told", async () => {
    const mark = 'garuda-serve-names';
    await world.userServers({
      my_notes: { ...fixtureEntry('normal', mark), env: { WHO: 'user' } },
    });
    await world.projectServers({
      'my-notes': { ...fixtureEntry('normal', mark), env: { WHO: 'project' } },
    });
    const { client } = await host(['--approvals', 'host', '--trust-project']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => name.toLowerCase() === 'my_notes__env')).toEqual([
      'my_notes__env',
    ]);
    const result = await client.callTool({ name: 'my_notes__env', arguments: { names: ['WHO'] } });
    const blocks = result.content as { type: string; text: string }[];
    expect(framedJson(blocks[0]?.text ?? '')).toMatchObject({ values: { WHO: 'user' } });
    // The model reads why the project's server offers nothing, after the result.
    expect(blocks.slice(1).map((block) => block.text)).toEqual([
      expect.stringMatching(
        /^<garuda_note>MCP server "my-notes" is degraded: its tools .* are not offered: MCP server "my_notes" \(yours\) holds those names\. .*<\/garuda_note>$/,
      ),
    ]);

    const status = await world.run(['status', '--trust-project']);
    expect(status.stdout).toMatch(/^my-notes\s+project\s+degraded\s+0\s/m);
    expect(status.stdout).toMatch(
      /^ {2}my-notes: degraded: its tools "mcp__my_notes__add", "mcp__my_notes__content", .* and 2 more are not offered: MCP server "my_notes" \(yours\) holds those names$/m,
    );
    expect(status.stderr).toContain('MCP server "my-notes" (the project\'s) is degraded');
    const json = JSON.parse((await world.run(['status', '--json', '--trust-project'])).stdout) as {
      servers: { name: string; state: string; lostNames: { keptBy: string }[] }[];
    };
    const theirs = json.servers.find((row) => row.name === 'my-notes');
    expect(theirs?.state).toBe('connected');
    expect(theirs?.lostNames.length).toBeGreaterThan(0);
    expect(theirs?.lostNames.every((lost) => lost.keptBy === 'my_notes')).toBe(true);
    const doctor = await world.run(['doctor', '--trust-project']);
    expect(doctor.stdout).toMatch(/^ {2}my-notes\s+project\s+degraded\s/m);
    expect(doctor.stdout).toContain('1 server degraded');
    const call = await world.run(['call', 'my-notes/env', '{}', '--trust-project', '--yes']);
    expect(call.code).toBe(2);
    expect(call.stderr).toMatch(
      /MCP server "my-notes" has no tool "my-notes\/env"\..* It is degraded: its tools .* MCP server "my_notes" \(yours\) holds those names\./,
    );
  });

  it('hands the host only cleaned definitions and framed results of a hostile server', async () => {
    await world.userServers({ bad: fixtureEntry('evil', 'garuda-serve-hostile') });
    const { client } = await host(['--approvals', 'host']);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(7);
    expect(allStrings(tools).flatMap(hostileLeftovers)).toEqual([]);
    for (const name of ['bad__echo', 'bad__add']) {
      const result = await client.callTool({ name, arguments: { text: 'x', a: 1, b: 2 } });
      const text = textOf(result);
      const open = `<mcp_result server="bad" tool="${name.slice('bad__'.length)}">\n`;
      expect(text.startsWith(open), text.slice(0, 80)).toBe(true);
      expect(text.endsWith('\n</mcp_result>')).toBe(true);
      // What the server sent, inside our frame, is clean: no second frame, nothing invisible.
      expect(hostileLeftovers(text.slice(open.length, -'\n</mcp_result>'.length))).toEqual([]);
    }
  });

  it('stops every server and exits when the host goes away', async () => {
    const mark = `garuda-serve-gone-${process.pid}`;
    await world.userServers({ notes: fixtureEntry('normal', mark) });
    const { client, transport } = await host(['--approvals', 'host']);
    await client.listTools();
    expect((await pidsWith(mark)).length).toBeGreaterThan(0);
    const exited = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    await client.close();
    await exited;
    await waitFor(async () => (await pidsWith(mark)).length === 0, { timeoutMs: 60_000 });
  });
});

describe('garuda-mcp serve: a changed tool list', () => {
  it('reaches the host as list_changed once the manager let the change through', async () => {
    await world.userServers({ dyn: fixtureEntry('dynamic', 'garuda-serve-dynamic') });
    const { client, transport } = await host(['--approvals', 'host']);
    const before = (await client.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('dyn__add_tool');
    expect(before).not.toContain('dyn__added');
    // Each list_changed makes the host list again, as a host does; the one that shows the new
    // tool ends the wait (a server that finished starting may have told one before).
    let seen!: () => void;
    const sawAdded = new Promise<void>((resolve) => (seen = resolve));
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      const { tools } = await client.listTools();
      if (tools.some((tool) => tool.name === 'dyn__added')) seen();
    });
    const added = await client.callTool({ name: 'dyn__add_tool', arguments: {} });
    expect(added.isError).toBeFalsy();
    await sawAdded;
    // The user was told too (stderr is the host's log of this server; a pipe of its own).
    await waitFor(
      () =>
        transport
          .stderrTail()
          .join('\n')
          .includes('MCP server "dyn" changed its tools while it ran (added: added)'),
      { timeoutMs: 60_000 },
    );
  });
});

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
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('This call was not run: the user chose "Deny"');
    expect(textOf(denied)).not.toContain('does not ask per call');

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
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('This call was not run: the user chose "Deny"');
    expect(textOf(denied)).not.toContain('does not ask per call');
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

describe('garuda-mcp serve: a question belongs to its own call', () => {
  it('two calls of one tool are each asked in their own round; the answers do not cross (2026-07-28)', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-own-round') });
    // The host shows the questions itself (it declares forms; this handler is never used).
    const { client } = await host([], () => ({ action: 'decline' }), { modern: true });
    const a = await callRound(client, 'notes__echo', { text: 'call-A' });
    expect(questionOf(a).message).toContain('call-A');
    // B is asked while A's question is open: it does not wait for A's answer.
    const b = await callRound(client, 'notes__echo', { text: 'call-B' });
    expect(questionOf(b).message).toContain('call-B');
    expect(questionOf(b).message).not.toContain('call-A');
    expect(b.requestState).not.toBe(a.requestState);
    // Each answer goes with its own round: B denied, A allowed; only A runs.
    const deniedB = await callRound(
      client,
      'notes__echo',
      { text: 'call-B' },
      {
        round: b,
        decision: 'Deny',
      },
    );
    expect(deniedB.resultType).not.toBe('input_required');
    expect(deniedB.isError).toBe(true);
    expect(textOf(deniedB)).toContain('This call was not run');
    const ranA = await callRound(
      client,
      'notes__echo',
      { text: 'call-A' },
      {
        round: a,
        decision: 'Allow once',
      },
    );
    expect(ranA.resultType).not.toBe('input_required');
    expect(ranA.isError).toBeFalsy();
    expect(textOf(ranA)).toContain('call-A');
    expect(textOf(ranA)).not.toContain('call-B');
    await waitFor(async () => (await auditCalls(world.home)).length >= 2);
    expect(await auditCalls(world.home)).toEqual([
      ['echo', 'declined'],
      ['echo', 'ok'],
    ]);
  });

  it("a call's question is never carried by the round of another call of the same tool that is running (2026-07-28)", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-not-crossed') });
    const { client } = await host([], () => ({ action: 'decline' }), { modern: true });
    await questionsStayWithTheirCalls(client, client, world.home);
  });

  it('two calls of one tool are each asked inside their own call; an open question holds no other (2025)', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-own-call') });
    let sawB!: () => void;
    const bAsked = new Promise<void>((resolve) => (sawB = resolve));
    const { client, questions } = await host([], async (message) => {
      if (message.includes('call-B')) {
        sawB();
        return { action: 'accept', decision: 'Deny' };
      }
      // A's question stays open until B's question came: B does not wait behind it.
      await bAsked;
      return { action: 'accept', decision: 'Allow once' };
    });
    const [ranA, deniedB] = await Promise.all([
      client.callTool({ name: 'notes__echo', arguments: { text: 'call-A' } }),
      client.callTool({ name: 'notes__echo', arguments: { text: 'call-B' } }),
    ]);
    expect(questions).toHaveLength(2);
    expect(questions.filter((q) => q.includes('call-A') && !q.includes('call-B'))).toHaveLength(1);
    expect(ranA.isError).toBeFalsy();
    expect(textOf(ranA)).toContain('call-A');
    expect(deniedB.isError).toBe(true);
    expect(textOf(deniedB)).toContain('This call was not run');
    await waitFor(async () => (await auditCalls(world.home)).length >= 2);
    expect((await auditCalls(world.home)).sort()).toEqual([
      ['echo', 'declined'],
      ['echo', 'ok'],
    ]);
  });

  it('a question not answered in time expires: a late answer is refused and nothing runs (2026-07-28)', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-expired') });
    const { client, transport } = await host(
      ['--answer-timeout', '1', '--allow', 'mcp.notes.add'],
      () => ({ action: 'decline' }),
      { modern: true },
    );
    const asked = await callRound(client, 'notes__echo', { text: 'too late' });
    questionOf(asked);
    await waitFor(() => transport.stderrTail().join('\n').includes('expired'), {
      timeoutMs: 60_000,
    });
    expect(transport.stderrTail().join('\n')).toContain(
      'a question about "notes__echo" was not answered within 1 s',
    );
    const late = await callRound(
      client,
      'notes__echo',
      { text: 'too late' },
      {
        round: asked,
        decision: 'Allow once',
      },
    );
    expect(late.resultType).not.toBe('input_required');
    expect(late.isError).toBe(true);
    expect(textOf(late)).toContain('This question expired');
    expect(textOf(late)).toContain('Call the tool again');
    // The expired call never ran: the next call (allowed beforehand) is the first the log has.
    const next = await callRound(client, 'notes__add', { a: 1, b: 2 });
    expect(next.isError).toBeFalsy();
    await waitFor(async () => (await auditCalls(world.home)).length >= 1);
    expect(await auditCalls(world.home)).toEqual([['add', 'ok']]);
  });

  it('a question a 2025 host leaves unanswered ends its call with an error result, not a hang', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-expired-2025') });
    const { client, transport } = await host(
      ['--answer-timeout', '1', '--allow', 'mcp.notes.add'],
      // The host's user never answers.
      () => new Promise<Reply>(() => {}),
    );
    const refused = await client.callTool({ name: 'notes__echo', arguments: { text: 'never' } });
    expect(refused.isError).toBe(true);
    expect(transport.stderrTail().join('\n')).toContain(
      'a question about "notes__echo" was not answered within 1 s',
    );
    const next = await client.callTool({ name: 'notes__add', arguments: { a: 1, b: 2 } });
    expect(next.isError).toBeFalsy();
    await waitFor(async () => (await auditCalls(world.home)).length >= 1);
    expect(await auditCalls(world.home)).toEqual([['add', 'ok']]);
  });

  it("a server's own question while several of its calls are open is handed to none of their hosts", async () => {
    await world.userServers({ ask: fixtureEntry('asker', 'garuda-serve-asker-several') });
    const forms: string[] = [];
    let approvals = 0;
    let sawSecond!: () => void;
    const secondAsked = new Promise<void>((resolve) => (sawSecond = resolve));
    const { client, transport } = await host([], async (message) => {
      if (message.includes('before this call runs')) {
        // The first call is allowed only once the second is asked too: both are open then.
        approvals += 1;
        if (approvals === 2) sawSecond();
        else await secondAsked;
        return { action: 'accept', decision: 'Allow once' };
      }
      forms.push(message);
      return { action: 'accept', content: { ...ASKER_DEFAULTS, name: 'Grace' } };
    });
    const results = await Promise.all(
      [1, 2].map(() => client.callTool({ name: 'ask__ask_form', arguments: { form: 'all' } })),
    );
    // Which call a server's question is about cannot be told while two run: it is declined,
    // never shown in the other call's request.
    expect(results.some((result) => textOf(result).includes('"action":"decline"'))).toBe(true);
    expect(forms.length).toBeLessThan(2);
    expect(transport.stderrTail().join('\n')).toContain(
      'MCP server "ask" asked a question while several of its calls ran',
    );
  });

  it('--answer-timeout takes whole seconds from 1 to 50', async () => {
    for (const wrong of ['0', '51', '1.5', 'soon']) {
      const result = await world.run(['serve', '--answer-timeout', wrong]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--answer-timeout must be a number of seconds from 1 to 50');
    }
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

describe('garuda-mcp serve: typed content', () => {
  it('hands the host the images and audio of a result besides the framed text', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-media') });
    const { client } = await host(['--approvals', 'host']);
    const result = await client.callTool({ name: 'notes__content', arguments: {} });
    const blocks = result.content as { type: string; mimeType?: string; data?: string }[];
    expect(blocks.map((block) => block.type)).toEqual(['text', 'image', 'audio']);
    expect(textOf(result)).toMatch(/^<mcp_result server="notes" tool="content">/);
    expect(blocks[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from(blocks[1]!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(blocks[2]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
  });
});

describe('garuda-mcp serve: progress and cancellation', () => {
  it("tells the host the server's progress, and a host's cancel stops the call behind it", async () => {
    await world.userServers({ fx: fixtureEntry('normal', 'garuda-serve-cancel') });
    const { client } = await host(['--approvals', 'host']);
    const progress: number[] = [];
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'fx__slow', arguments: { ms: 120_000 } },
      {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.progress);
          if (progress.length === 2) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[1]!).toBeGreaterThan(progress[0]!);
    // The call behind the gateway ended as cancelled, long before its two minutes.
    await waitFor(
      async () =>
        (await auditCalls(world.home)).some(
          ([tool, outcome]) => tool === 'slow' && outcome === 'cancelled',
        ),
      { timeoutMs: 60_000 },
    );
  });
});

describe('garuda-mcp serve: prompts and resources', () => {
  it('passes prompts through, cleaned, under <server>__<prompt>', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-prompts') });
    const { client } = await host(['--approvals', 'host']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['lib__hostile', 'lib__review']);
    expect(allStrings(prompts).flatMap(hostileLeftovers)).toEqual([]);
    const review = await client.getPrompt({
      name: 'lib__review',
      arguments: { code: 'x = 1', lang: 'python' },
    });
    expect(review.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(JSON.stringify(review.messages)).toContain('Review this python:');
    const hostile = await client.getPrompt({ name: 'lib__hostile' });
    expect(allStrings(hostile).flatMap(hostileLeftovers)).toEqual([]);
    await expect(client.getPrompt({ name: 'lib__nope' })).rejects.toThrow(/No prompt "lib__nope"/);
  });

  it('passes resources through under garuda:// URIs, read back framed and cleaned', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-resources') });
    const { client } = await host(['--approvals', 'host']);
    const { resources } = await client.listResources();
    const readme = resources.find((r) => r.uri === 'garuda://lib/note%3A%2F%2Flibrary%2Freadme');
    expect(readme?.name).toMatch(/^lib: /);
    expect(allStrings(resources).flatMap(hostileLeftovers)).toEqual([]);
    // The server's javascript: URI is never shown raw.
    expect(JSON.stringify(resources)).not.toContain('javascript:alert');
    const read = await client.readResource({ uri: readme!.uri });
    const [first] = read.contents as { uri: string; text?: string }[];
    expect(first?.uri).toBe(readme!.uri);
    expect(first?.text).toMatch(/^<mcp_resource server="lib" uri="note:\/\/library\/readme">/);
    const hostile = resources.find((r) =>
      r.uri.endsWith(encodeURIComponent('note://library/hostile')),
    );
    const framed = (await client.readResource({ uri: hostile!.uri })).contents[0] as {
      text: string;
    };
    expect(framed.text.match(/<\/mcp_resource>/g)).toHaveLength(1);
    const logo = resources.find((r) => r.uri.endsWith(encodeURIComponent('note://library/logo')));
    const image = (await client.readResource({ uri: logo!.uri })).contents;
    expect(image.some((content) => 'blob' in content && content.mimeType === 'image/png')).toBe(
      true,
    );
    await expect(
      client.readResource({ uri: 'garuda://lib/note%3A%2F%2Fsomewhere%2Felse' }),
    ).rejects.toThrow(/No such resource behind this gateway/);

    // A template keeps its expression; what the host expands it to reads the server's resource.
    const { resourceTemplates } = await client.listResourceTemplates();
    const item = resourceTemplates.find((t) => t.name === 'lib: item');
    expect(item?.uriTemplate).toBe('garuda://lib/note%3A%2F%2Flibrary%2Fitems%2F{id}');
    expect(item?.description).toContain('its template: note://library/items/{id}');
    const expanded = item!.uriTemplate.replace('{id}', encodeURIComponent('42 b'));
    const read42 = (await client.readResource({ uri: expanded })).contents[0] as { text: string };
    expect(read42.text).toMatch(
      /^<mcp_resource server="lib" uri="note:\/\/library\/items\/42%20b">/,
    );
    expect(read42.text).toContain('item 42%20b');
    // Text the template does not have reads nothing.
    await expect(
      client.readResource({ uri: 'garuda://lib/note%3A%2F%2Flibrary%2Fother%2F42' }),
    ).rejects.toThrow(/No such resource behind this gateway/);
  });

  it('ReDoS: a server template of adjacent expressions is not offered, and reading it never stops the gateway answering', async () => {
    await world.userServers({
      lib: fixtureEntry('library', 'garuda-serve-redos'),
      fx: fixtureEntry('normal', 'garuda-serve-redos'),
    });
    const { client, transport } = await host(['--approvals', 'host']);
    // A slow call of another server is in flight the whole time.
    const slow = client.callTool({ name: 'fx__slow', arguments: { ms: 5_000 } });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    // `note://{a}{b}…{z}.txt`: a backtracking match of a URI that does not end in `.txt` tries
    // every way to split it among 26 values.
    const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
    const uriTemplate = `note://${letters.map((letter) => `{${letter}}`).join('')}.txt`;
    const added = await client.callTool({
      name: 'lib__add_template',
      arguments: { name: 'packed', uriTemplate },
    });
    expect(added.isError).toBeFalsy();
    await changed;
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.name)).toEqual(['lib: item']);
    await waitFor(
      () => transport.stderrTail().join('\n').includes('its resource template "note://{a}{b}{c}'),
      { timeoutMs: 60_000 },
    );
    expect(transport.stderrTail().join('\n')).toContain('is not offered to the host');
    // A host may send the URI anyway: refused at once, and the gateway goes on answering.
    const hostile = `garuda://lib/note%3A%2F%2F${'a'.repeat(40)}.tx`;
    const read = client.readResource({ uri: hostile }).then(
      () => 'read',
      (error: unknown) => String(error),
    );
    await expect(client.ping()).resolves.toBeDefined();
    const sum = await client.callTool({ name: 'fx__add', arguments: { a: 2, b: 3 } });
    expect(textOf(sum)).toContain('5');
    expect(await read).toMatch(/No such resource behind this gateway/);
    expect(textOf(await slow)).toContain('done');
  });
});

// Without an OS sandbox there is nothing to prove: skipped, and CI (which requires one) fails.
const SANDBOXED = await osSandboxed();

describe.skipIf(!SANDBOXED)('garuda-mcp serve: the sandbox behind the gateway', () => {
  it('a server called through the gateway still cannot write outside, read garuda home or connect', async () => {
    const listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      await world.userServers({ esc: fixtureEntry('escape', 'garuda-serve-escape') });
      const secret = path.join(world.home, 'secret-token');
      await writeFile(secret, 'do not read me');
      // Off /tmp (bubblewrap's is private), outside the project: next to this test file.
      const outside = path.join(import.meta.dirname, `escape-serve-${process.pid}.txt`);
      const { client } = await host(['--approvals', 'host']);
      const result = await client.callTool({
        name: 'esc__escape',
        arguments: {
          root: world.root,
          outside,
          secretFile: secret,
          netHost: '127.0.0.1',
          netPort: port,
        },
      });
      const text = textOf(result);
      const report = framedJson<Record<string, { ok: boolean }>>(text);
      expect(report.writeRoot?.ok).toBe(true);
      expect(report.writeOutside?.ok).toBe(false);
      expect(existsSync(outside)).toBe(false);
      expect(report.writeGaruda?.ok).toBe(false);
      expect(report.readSecret?.ok).toBe(false);
      expect(report.connect?.ok).toBe(false);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
