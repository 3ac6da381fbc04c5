// What a server says while it runs reaches the host cleaned and bounded: a call's progress (only
// when the call asks for it, at most one report per interval, values that grow), log messages (at
// most LIMITS.maxServerLogsPerSecond a second, the rest counted), and requests for what the client
// does not offer (sampling, roots, elicitation without a host that asks) are refused plainly.
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError, LIMITS, type CallProgress } from '../src/index.js';
import type { ServerLogEntry } from '../src/types.js';
import { ScriptedPrompter, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** Collects values; `until(n)` waits for the n-th (bounded by the test's timeout). */
class Heard<T> {
  readonly seen: T[] = [];
  #waiters: (() => void)[] = [];
  readonly add = (value: T): void => {
    this.seen.push(value);
    for (const wake of this.#waiters.splice(0)) wake();
  };
  async until(test: (seen: readonly T[]) => boolean): Promise<void> {
    while (!test(this.seen)) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

// What no cleaned line may hold: escapes and other controls, bidi and invisible characters.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u;

describe('progress of a call', () => {
  it('is asked for only when the call wants it, and reports grow, cleaned, rate-limited', async () => {
    const { mcp } = await ws.startUserServers({ chat: fixture('chatty', ws.mark) });
    const unasked = await mcp.call('mcp__chat__progress_burst', { count: 5 });
    expect(unwrap(unasked.text)).toBe('no progress token');

    const heard = new Heard<CallProgress>();
    const started = Date.now();
    const result = await mcp.call(
      'mcp__chat__progress_burst',
      { count: 500 },
      { onProgress: heard.add },
    );
    const elapsed = Date.now() - started;
    expect(unwrap(result.text)).toBe('sent 500');
    const reports = heard.seen;
    expect(reports.length).toBeGreaterThanOrEqual(1);
    // A burst at once, then at most one per interval while the call ran, and the last one.
    expect(reports.length).toBeLessThanOrEqual(
      LIMITS.progressBurst + 1 + Math.ceil(elapsed / LIMITS.progressIntervalMs),
    );
    expect(reports.length).toBeLessThan(500);
    expect(reports[0]).toMatchObject({ server: 'chat', tool: 'mcp__chat__progress_burst' });
    expect(reports[0]?.total).toBe(500);
    // The last report before the result is the final one, though the server sent it within the
    // rate limit's interval and right before its result.
    expect(reports.at(-1)).toMatchObject({ progress: 500, total: 500 });
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]!.progress).toBeGreaterThan(reports[i - 1]!.progress);
    }
    // The value that went backwards is never told.
    expect(reports.some((report) => report.message === 'backwards')).toBe(false);
    for (const report of reports) {
      expect(report.message ?? '').not.toMatch(UNSAFE);
      expect(report.message ?? '').not.toContain('</mcp_result');
      expect(Array.from(report.message ?? '').length).toBeLessThanOrEqual(200);
    }

    // Nothing more comes after the call ended: another call of the same server completes first.
    const count = reports.length;
    await mcp.call('mcp__chat__slow', { ms: LIMITS.progressIntervalMs * 3 });
    expect(heard.seen.length).toBe(count);
  });

  it('a throwing onProgress is logged and the call still answers', async () => {
    const warnings = new Heard<string>();
    const { mcp } = await ws.startUserServers(
      { chat: fixture('chatty', ws.mark) },
      { logger: { warn: warnings.add } },
    );
    // `slow` reports every 100 ms while it runs, so reports come before its answer.
    const result = await mcp.call(
      'mcp__chat__slow',
      { ms: 600 },
      {
        onProgress: () => {
          throw new Error('host bug');
        },
      },
    );
    expect(unwrap(result.text)).toBe('done');
    await warnings.until((seen) => seen.length > 0);
    expect(warnings.seen[0]).toBe('onProgress failed: host bug');
  });

  it('a progress callback that is not a function is refused before anything runs', async () => {
    const { mcp, prompter } = await ws.startUserServers({ chat: fixture('chatty', ws.mark) });
    await expect(
      mcp.call('mcp__chat__echo', { text: 'x' }, { onProgress: 'yes' as never }),
    ).rejects.toSatisfy((error) => InvalidOptionsError.isInstance(error));
    expect(prompter.approvals).toHaveLength(0);
  });
});

describe('server log messages', () => {
  it('reach onServerLog cleaned, one line, with level and logger; JSON data as JSON', async () => {
    const heard = new Heard<ServerLogEntry>();
    const { mcp } = await ws.startUserServers(
      { chat: fixture('chatty', ws.mark) },
      { onServerLog: heard.add },
    );
    await mcp.call('mcp__chat__log_burst', { count: 3, level: 'error' });
    await heard.until((seen) => seen.length >= 3);
    expect(heard.seen.map(({ server, level, logger }) => ({ server, level, logger }))).toEqual([
      { server: 'chat', level: 'error', logger: 'chatty' },
      { server: 'chat', level: 'error', logger: 'chatty' },
      { server: 'chat', level: 'error', logger: 'chatty' },
    ]);
    const [first, second, third] = heard.seen;
    expect(first?.text.startsWith('log 1 ')).toBe(true);
    expect(first?.text).not.toMatch(UNSAFE);
    expect(first?.text).not.toContain('</mcp_result');
    expect(second?.text).toBe('{"n":2,"note":"json"}');
    expect(third?.text).toBe('log 3');
  });

  it('a flood is cut to the per-second limit, and what was dropped is counted', async () => {
    const heard = new Heard<ServerLogEntry>();
    const { mcp } = await ws.startUserServers(
      { chat: fixture('chatty', ws.mark) },
      { onServerLog: heard.add },
    );
    const started = Date.now();
    await mcp.call('mcp__chat__log_burst', { count: 200 });
    // The flood's last message was sent before the answer; a later call's message comes after it.
    await mcp.call('mcp__chat__slow', { ms: 1100 });
    await mcp.call('mcp__chat__log_burst', { count: 1, level: 'info' });
    await heard.until((seen) => seen.some((entry) => entry.level === 'info'));
    const seconds = Math.ceil((Date.now() - started) / 1000) + 1;
    const told = heard.seen.filter((entry) => entry.dropped === undefined);
    const dropped = heard.seen.reduce((sum, entry) => sum + (entry.dropped ?? 0), 0);
    expect(heard.seen.length).toBeLessThanOrEqual(seconds * LIMITS.maxServerLogsPerSecond);
    expect(dropped).toBeGreaterThan(0);
    expect(told.length + dropped).toBe(201);
    const summary = heard.seen.find((entry) => entry.dropped !== undefined);
    expect(summary?.text).toMatch(/^\d+ log messages? (was|were) dropped/);
  });

  it('without onServerLog they go to the logger at debug', async () => {
    const debug = new Heard<string>();
    const { mcp } = await ws.startUserServers(
      { chat: fixture('chatty', ws.mark) },
      { logger: { debug: debug.add } },
    );
    await mcp.call('mcp__chat__log_burst', { count: 3 });
    await debug.until((seen) => seen.some((line) => line.includes('log 3')));
    expect(debug.seen.find((line) => line.includes('log 3'))).toBe(
      'MCP server "chat" log (warning chatty): log 3',
    );
  });

  it('an onServerLog that is not a function is refused', () => {
    expect(() => ws.manager(new ScriptedPrompter(), { onServerLog: 42 as never })).toThrow(
      /onServerLog.*must be a function/,
    );
  });
});

describe('requests for what the client does not offer', () => {
  it.each([
    ['sampling', 'does not offer sampling'],
    ['roots', 'does not offer roots'],
    ['elicitation', 'does not offer elicitation'],
  ])('%s is refused with a clear error (2025 revisions)', async (what, words) => {
    const { mcp } = await ws.startUserServers({
      chat: fixture('chatty', ws.mark, { env: { FIXTURE_ERA: 'legacy' } }),
    });
    const text = unwrap((await mcp.call('mcp__chat__ask_client', { what })).text);
    expect(text).toMatch(/^error -32601: Garuda MCP does not offer /);
    expect(text).toContain(words);
  });

  it('on the 2026-07-28 revision a server cannot send them at all', async () => {
    const { mcp } = await ws.startUserServers({ chat: fixture('chatty', ws.mark) });
    const text = unwrap((await mcp.call('mcp__chat__ask_client', { what: 'sampling' })).text);
    expect(text).toContain('not supported by the negotiated protocol version');
  });
});
