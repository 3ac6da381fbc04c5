// garuda-mcp serve: a question belongs to its own call (see serve.test.ts for the set-up). Two
// calls of one tool are each asked in their own round, a question expires, an unanswered one
// ends its call, and a server's own question while several calls are open goes to no host.
import { ASKER_DEFAULTS, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  auditCalls,
  callRound,
  expectFinalError,
  questionOf,
  questionsStayWithTheirCalls,
} from './support/rounds.js';
import { hostsPerTest, textOf, type Reply } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

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
      { round: b, decision: 'Deny' },
    );
    expectFinalError(deniedB, 'This call was not run');
    const ranA = await callRound(
      client,
      'notes__echo',
      { text: 'call-A' },
      { round: a, decision: 'Allow once' },
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
      { round: asked, decision: 'Allow once' },
    );
    expectFinalError(late, 'This question expired');
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
