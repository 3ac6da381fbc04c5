// Risk tiers from the user's declared capabilities, approval modes, the destructive floor, and
// batching (serialized by default, path_scoped side by side on different paths).
import { describe, expect, it } from 'vitest';
import { CallCancelledError, InvalidOptionsError } from '../src/index.js';
import { ScriptedPrompter, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

describe('approval modes and risk tiers', () => {
  it('balanced runs a read-only server’s calls without asking, and asks for the others', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      {
        reader: fixture('normal', ws.mark, { capabilities: ['read'] }),
        other: fixture('normal', ws.mark),
      },
      { rules: { approvalMode: 'balanced' } },
    );
    const low = await mcp.call('mcp__reader__echo', { text: 'hi' });
    expect(unwrap(low.text)).toBe('hi');
    expect(low.approval).toEqual({
      asked: false,
      why: 'approval mode "balanced" runs low-risk (read-only) calls without asking',
    });
    expect(prompter.approvals).toEqual([]);

    const high = await mcp.call('mcp__other__echo', { text: 'yo' });
    expect(high.approval).toEqual({ asked: true, why: 'the user approved it' });
    expect(prompter.approvals).toHaveLength(1);
    expect(prompter.approvals[0]).toMatchObject({
      name: 'mcp__other__echo',
      risk: { tier: 'high', text: 'high (capabilities not declared)' },
      mode: 'balanced',
      why: 'approval mode "balanced" asks before a high-risk call',
    });

    expect(mcp.status().map((row) => [row.name, row.risk.tier, row.risk.text])).toEqual([
      ['reader', 'low', 'low (declared: read)'],
      ['other', 'high', 'high (capabilities not declared)'],
    ]);
  });

  it('trusted runs high-risk calls; a destructive call asks in every mode, whatever the rules', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      {
        writer: fixture('normal', ws.mark, { capabilities: ['write', 'network'] }),
        wiper: fixture('normal', ws.mark, { capabilities: ['read', 'irreversible'] }),
      },
      { rules: { approvalMode: 'trusted', allow: ['mcp.*'] } },
    );
    const high = await mcp.call('mcp__writer__add', { a: 1, b: 1 });
    expect(high.approval?.asked).toBe(false);
    expect(prompter.approvals).toEqual([]);

    prompter.approve = false;
    await expect(mcp.call('mcp__wiper__echo', { text: 'x' })).rejects.toThrow(/declined/);
    expect(prompter.approvals).toHaveLength(1);
    expect(prompter.approvals[0]).toMatchObject({
      risk: { tier: 'destructive', text: 'destructive (declared: irreversible, read)' },
      mode: 'trusted',
      why: 'its server is declared "irreversible": a destructive call always asks',
    });
  });

  it('ask (the default) asks even for a read-only server; an allow rule still skips it', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      { reader: fixture('normal', ws.mark, { capabilities: ['read'] }) },
      { rules: { allow: ['mcp.reader.add'] } },
    );
    await mcp.call('mcp__reader__echo', { text: 'a' });
    expect(prompter.approvals.map((a) => [a.mode, a.why])).toEqual([
      ['ask', 'approval mode "ask" asks before every call'],
    ]);
    const ruled = await mcp.call('mcp__reader__add', { a: 1, b: 2 });
    expect(ruled.approval).toEqual({
      asked: false,
      why: 'the allow rule "mcp.reader.add" matches it',
    });
    expect(prompter.approvals).toHaveLength(1);
  });

  it('refuses an unknown approval mode', () => {
    expect(() =>
      ws.manager(new ScriptedPrompter(), { rules: { approvalMode: 'yolo' as never } }),
    ).toThrow(InvalidOptionsError);
  });

  it("shows a project's declared tier on its consent screen, with a warning when it is low", async () => {
    const { prompter } = await ws.startProjectServers(
      { theirs: fixture('normal', ws.mark, { capabilities: ['read'] }) },
      'deny',
    );
    expect(prompter.consents[0]?.risk).toEqual({
      tier: 'low',
      capabilities: ['read'],
      batching: 'parallel',
      text: 'low (declared: read)',
    });
    expect(prompter.consents[0]?.warnings.join('\n')).toContain(
      'the repository declares this server read-only',
    );
  });
});

/** Whether `promise` settles; checked after the other work had every chance to finish. */
function track(promise: Promise<unknown>): { done: () => boolean } {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { done: () => done };
}

describe('batching', () => {
  it("serialized (the default): a server's second call waits for its first", async () => {
    const { mcp } = await ws.startUserServers(
      { one: fixture('normal', ws.mark) },
      { rules: { allow: ['mcp.*'] } },
    );
    const stop = new AbortController();
    const slow = mcp.call('mcp__one__slow', { ms: 60_000 }, { signal: stop.signal });
    const echo = mcp.call('mcp__one__echo', { text: 'after' });
    const echoed = track(echo);
    // However busy the machine, the echo cannot end while the slow call holds the server.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(echoed.done()).toBe(false);
    stop.abort();
    await expect(slow).rejects.toSatisfy(CallCancelledError.isInstance);
    expect(unwrap((await echo).text)).toBe('after');
  });

  it('a server declared read-only runs its calls side by side; "serialized" set for it holds', async () => {
    const { mcp } = await ws.startUserServers(
      {
        reads: fixture('normal', ws.mark, { capabilities: ['read'] }),
        strict: fixture('normal', ws.mark, { capabilities: ['read'], batching: 'serialized' }),
      },
      { rules: { allow: ['mcp.*'] } },
    );
    expect(mcp.status().map((row) => row.risk.batching)).toEqual(['parallel', 'serialized']);
    const stop = new AbortController();
    const slow = mcp.call('mcp__reads__slow', { ms: 60_000 }, { signal: stop.signal });
    // While the slow call runs, another call of the same server answers.
    expect(unwrap((await mcp.call('mcp__reads__echo', { text: 'beside' })).text)).toBe('beside');
    const strictSlow = mcp.call('mcp__strict__slow', { ms: 60_000 }, { signal: stop.signal });
    const strictEcho = track(mcp.call('mcp__strict__echo', { text: 'after' }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(strictEcho.done()).toBe(false);
    stop.abort();
    await expect(slow).rejects.toSatisfy(CallCancelledError.isInstance);
    await expect(strictSlow).rejects.toSatisfy(CallCancelledError.isInstance);
    await waitUntil(() => strictEcho.done());
  });

  it('a call waiting for its turn is cancelled by its own signal', async () => {
    const { mcp } = await ws.startUserServers(
      { one: fixture('normal', ws.mark) },
      { rules: { allow: ['mcp.*'] } },
    );
    const stopSlow = new AbortController();
    const slow = mcp.call('mcp__one__slow', { ms: 60_000 }, { signal: stopSlow.signal });
    const stopWaiting = new AbortController();
    const waiting = mcp.call('mcp__one__echo', { text: 'x' }, { signal: stopWaiting.signal });
    stopWaiting.abort();
    await expect(waiting).rejects.toSatisfy(CallCancelledError.isInstance);
    stopSlow.abort();
    await expect(slow).rejects.toSatisfy(CallCancelledError.isInstance);
    expect(unwrap((await mcp.call('mcp__one__echo', { text: 'free' })).text)).toBe('free');
  });

  it('path_scoped: calls on different paths run side by side, on the same path one by one', async () => {
    const { mcp } = await ws.startUserServers(
      {
        files: fixture('normal', ws.mark, {
          capabilities: ['read', 'write'],
          batching: 'path_scoped',
        }),
      },
      { rules: { allow: ['mcp.*'] } },
    );
    const stop = new AbortController();
    const slow = mcp.call(
      'mcp__files__slow',
      { ms: 60_000, path: 'docs' },
      { signal: stop.signal },
    );
    // Another path: it runs while the slow call holds "docs".
    const other = await mcp.call('mcp__files__echo', { text: 'beside', path: 'src/a.ts' });
    expect(unwrap(other.text)).toBe('beside');
    // A path inside "docs", and a call that names no path: both wait.
    const inside = track(mcp.call('mcp__files__echo', { text: 'in', file: 'docs/x.md' }));
    const unscoped = track(mcp.call('mcp__files__echo', { text: 'none' }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([inside.done(), unscoped.done()]).toEqual([false, false]);
    stop.abort();
    await expect(slow).rejects.toSatisfy(CallCancelledError.isInstance);
    await waitUntil(() => inside.done() && unscoped.done());
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}
