// Calls through the facade: approval, refusal, allow rules, time limits, cancellation, a server
// that stops by itself, and close().
import { CRASH_EXIT_CODE, EXIT_LATER_CODE, NORMAL_TOOL_NAMES, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  CallCancelledError,
  CallDeclinedError,
  CallTimeoutError,
  InvalidArgumentsError,
  ManagerClosedError,
  McpManagerErrorCode,
  ServerNotConnectedError,
  ServerStoppedError,
} from '../src/index.js';
import { fixture, pidsWith, unwrap, useWorkspace, wrapped } from './support/e2e.js';

const ws = useWorkspace();

describe('a full turn', () => {
  it('approve → the wrapped result; decline → CallDeclinedError; an allow rule skips the question', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      { tools: fixture('normal', ws.mark) },
      { rules: { allow: ['mcp.tools.add'] } },
    );

    const result = await mcp.call('mcp__tools__echo', { text: 'hello' });
    expect(result).toEqual({
      text: '<mcp_result server="tools" tool="echo">\nhello\n</mcp_result>',
      isError: false,
      content: [{ type: 'text', text: 'hello' }],
      approval: { asked: true, why: 'the user approved it' },
    });
    expect(prompter.approvals).toHaveLength(1);
    expect(prompter.approvals[0]).toMatchObject({
      server: 'tools',
      tool: 'echo',
      name: 'mcp__tools__echo',
    });
    expect(prompter.approvals[0]?.arguments).toEqual([
      { name: 'text', value: '"hello"', truncated: false },
    ]);

    prompter.approve = false;
    const declined = await mcp.call('mcp__tools__echo', { text: 'no' }).catch((e: unknown) => e);
    expect(CallDeclinedError.isInstance(declined)).toBe(true);
    expect((declined as CallDeclinedError).code).toBe(McpManagerErrorCode.CALL_DECLINED);
    expect((declined as Error).message).toMatch(/^The user declined this call of mcp__tools__echo/);
    expect(prompter.approvals).toHaveLength(2);

    // Allowed by rule: no question, even though the prompter would say no.
    const sum = await mcp.call('mcp__tools__add', { a: 2, b: 3 });
    expect(unwrap(sum.text)).toBe('5');
    expect(prompter.approvals).toHaveLength(2);

    // A tool that reports an error is a result, not an exception.
    prompter.approve = true;
    const failed = await mcp.call('mcp__tools__fail', { message: 'nope' });
    expect(failed.isError).toBe(true);
    await expect(mcp.call('mcp__tools__echo', 'text')).rejects.toSatisfy(
      InvalidArgumentsError.isInstance,
    );
  });

  it('timeoutMs: a slow call fails with a timeout; an abort is a cancel, told apart', async () => {
    // The limit applies to every call of this server, the quick ones below too: long enough that
    // a busy machine cannot make one of those time out. The slow tool never ends by itself.
    const { mcp } = await ws.startUserServers(
      { s: fixture('normal', ws.mark, { timeoutMs: 5_000 }) },
      { rules: { allow: ['mcp.s.*'] } },
    );

    const timedOut = await mcp.call('mcp__s__slow', { ms: 600_000 }).catch((e: unknown) => e);
    expect(CallTimeoutError.isInstance(timedOut)).toBe(true);
    expect((timedOut as Error).message).toMatch(/did not answer within 5000 ms/);

    // Aborted long before the limit (an earlier timer fires first, however busy the machine).
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const cancelled = await mcp
      .call('mcp__s__slow', { ms: 600_000 }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(CallCancelledError.isInstance(cancelled)).toBe(true);
    expect(CallTimeoutError.isInstance(cancelled)).toBe(false);
    expect((cancelled as CallCancelledError).code).toBe(McpManagerErrorCode.CALL_CANCELLED);

    // Cancelled while waiting for approval.
    const asking = ws.manager({
      consent: () => Promise.resolve('deny'),
      notice: () => {},
      approveCall: (_preview, signal) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    });
    await asking.start();
    const early = new AbortController();
    setTimeout(() => early.abort(), 50);
    await expect(
      asking.call('mcp__s__echo', { text: 'x' }, { signal: early.signal }),
    ).rejects.toSatisfy(CallCancelledError.isInstance);

    expect(unwrap((await mcp.call('mcp__s__echo', { text: 'still here' })).text)).toBe(
      'still here',
    );
    expect(mcp.status()[0]?.state).toBe('connected');
  });
});

describe('a server that stops by itself', () => {
  it('crash mid-call → failed, one notice, its tools leave tools(), calls fail clearly', async () => {
    const { prompter, mcp } = await ws.startUserServers({
      c: fixture('crash', ws.mark),
      n: fixture('normal', ws.mark),
    });
    expect(mcp.takeNotes()).toEqual([]);

    const crashed = await mcp.call('mcp__c__crash', {}).catch((e: unknown) => e);
    expect(ServerStoppedError.isInstance(crashed)).toBe(true);
    expect((crashed as Error).message).toContain(`exited with code ${CRASH_EXIT_CODE}`);

    await waitFor(() => mcp.status()[0]?.state === 'failed');
    expect(prompter.notices).toEqual(['MCP server "c" stopped. Its tools now fail.']);
    expect(mcp.tools().every((t) => t.server === 'n')).toBe(true);
    expect(mcp.tools()).toHaveLength(NORMAL_TOOL_NAMES.length);
    expect(mcp.status()[0]?.detail).toMatch(/^it stopped by itself: exited with code 3/);

    const after = await mcp.call('mcp__c__echo', { text: 'x' }).catch((e: unknown) => e);
    expect(ServerNotConnectedError.isInstance(after)).toBe(true);
    expect((after as Error).message).toMatch(/MCP server "c" is not connected \(state: failed;/);

    const notes = mcp.takeNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^MCP server "c" is not available \(it stopped by itself: exited with code 3.*\)\. Do not pretend to use it\.$/,
    );
    expect(mcp.takeNotes()).toEqual([]);
    // The other server is unaffected.
    expect(unwrap((await mcp.call('mcp__n__echo', { text: 'ok' })).text)).toBe('ok');
  });

  it('a real Node crash mid-call keeps its reason, not the stack or the Node.js banner', async () => {
    const { mcp } = await ws.startUserServers({
      c: wrapped(['--mode', 'crash', '--crash-error', 'GITHUB_TOKEN is missing'], ws.mark),
    });
    const crashed = await mcp.call('mcp__c__crash', {}).catch((e: unknown) => e);
    expect(ServerStoppedError.isInstance(crashed), JSON.stringify(crashed)).toBe(true);
    await waitFor(() => mcp.status()[0]?.state === 'failed');
    const shown = [
      (crashed as Error).message,
      mcp.status()[0]?.detail ?? '',
      mcp.takeNotes().join('\n'),
    ];
    for (const text of shown) {
      expect(text).toContain('Error: GITHUB_TOKEN is missing');
      expect(text).not.toMatch(/Node\.js v\d|requireStack|E_CONFIG|node:internal/);
    }
  });

  it('an exit with no call in flight is noticed too, and reload brings the server back', async () => {
    const { prompter, mcp } = await ws.startUserServers({ c: fixture('crash', ws.mark) });
    await mcp.call('mcp__c__exit_later', { ms: 50 });
    await waitFor(() => mcp.status()[0]?.state === 'failed');
    expect(mcp.status()[0]?.detail).toContain(`exited with code ${EXIT_LATER_CODE}`);
    expect(prompter.notices).toEqual(['MCP server "c" stopped. Its tools now fail.']);

    await mcp.reload('c');
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(unwrap((await mcp.call('mcp__c__echo', { text: 'back' })).text)).toBe('back');
    expect(prompter.notices).toHaveLength(1);
  });
});

describe('close()', () => {
  it('stops every server with no notice and no process left, even one that ignores SIGTERM', async () => {
    await ws.userServers({
      a: fixture('normal', ws.mark),
      b: fixture('stubborn', ws.mark),
      off: fixture('normal', ws.mark, { enabled: false }),
    });
    const { prompter, mcp } = await ws.startProjectServers(
      { p: fixture('normal', ws.mark) },
      'once',
    );
    // The stubborn server's child, in the same process group.
    await mcp.call('mcp__b__spawn_child', { ms: 60_000 });
    const before = await pidsWith(ws.mark);
    expect(before.length).toBeGreaterThanOrEqual(3);
    const noticesBefore = prompter.notices.length;

    const slow = mcp.call('mcp__a__slow', { ms: 10_000 }).catch((e: unknown) => e);
    await mcp.close();

    expect(prompter.notices).toHaveLength(noticesBefore);
    expect(mcp.status().map((r) => r.state)).toEqual(['stopped', 'stopped', 'stopped', 'stopped']);
    expect(mcp.tools()).toEqual([]);
    expect(await pidsWith(ws.mark)).toEqual([]);
    expect(ManagerClosedError.isInstance(await slow)).toBe(true);
    await expect(mcp.call('mcp__a__echo', { text: 'x' })).rejects.toSatisfy(
      ManagerClosedError.isInstance,
    );
    await mcp.close(); // twice is fine
  });
});
