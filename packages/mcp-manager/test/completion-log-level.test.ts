// complete() asks the server whose prompt or template it is and hands back cleaned, capped
// values (a server without completions answers none); setLogLevel() reaches every server that
// takes it, and one that connects later; the servers' logs reach onServerLog cleaned.
import { RELAY_NAMES, RELAY_TEMPLATE, RELAY_TOPICS } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { CallFailedError, LIMITS } from '../src/index.js';
import type { ServerLogEntry } from '../src/types.js';
import { fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

// What no cleaned line may hold: escapes and other controls, bidi and invisible characters.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u;

const LEGACY = { env: { FIXTURE_ERA: 'legacy' } };

describe('complete()', () => {
  it('completes a prompt argument and a template variable of the owning server, cleaned', async () => {
    const { mcp } = await ws.startUserServers({ relay: fixture('relay', ws.mark) });
    const prompt = await mcp.complete({
      server: 'relay',
      ref: { type: 'prompt', name: 'greet' },
      argument: { name: 'name', value: 'al' },
    });
    expect(prompt.values).toContain('alice');
    expect(prompt.values).toContain('typed:al');
    expect(prompt.values).toHaveLength(RELAY_NAMES.length + 1);
    for (const value of prompt.values) expect(value).not.toMatch(UNSAFE);
    expect(prompt).toMatchObject({ total: RELAY_NAMES.length + 1, hasMore: false });

    const template = await mcp.complete(
      {
        server: 'relay',
        ref: { type: 'template', uriTemplate: RELAY_TEMPLATE },
        argument: { name: 'topic', value: 'n' },
        context: { arguments: { other: 'x' } },
      },
      { timeoutMs: 5_000 },
    );
    expect(template.values).toContain('news');
    expect(template.values).toContain('typed:n');
    expect(template.values).toHaveLength(RELAY_TOPICS.length + 1);
    for (const value of template.values) expect(value).not.toMatch(UNSAFE);
    for (const value of [...prompt.values, ...template.values]) {
      expect(Array.from(value).length).toBeLessThanOrEqual(LIMITS.maxCompletionValueChars);
    }
  });

  it('answers no values for a server without completions, and refuses what it does not list', async () => {
    const { mcp } = await ws.startUserServers({
      lib: fixture('library', ws.mark),
      relay: fixture('relay', ws.mark),
    });
    await expect(
      mcp.complete({
        server: 'lib',
        ref: { type: 'prompt', name: 'review' },
        argument: { name: 'lang', value: 'ty' },
      }),
    ).resolves.toEqual({ values: [], hasMore: false });
    const unlisted = await mcp
      .complete({
        server: 'relay',
        ref: { type: 'prompt', name: 'nope' },
        argument: { name: 'name', value: '' },
      })
      .catch((error: unknown) => error);
    expect(CallFailedError.isInstance(unlisted)).toBe(true);
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      mcp.complete(
        {
          server: 'relay',
          ref: { type: 'template', uriTemplate: RELAY_TEMPLATE },
          argument: { name: 'topic', value: '' },
        },
        { signal: aborted.signal },
      ),
    ).rejects.toMatchObject({ code: 'MANAGER_CALL_CANCELLED' });
  });
});

describe('setLogLevel()', () => {
  it('reaches each server that takes it, and one that connects later; logs arrive cleaned', async () => {
    const logs: ServerLogEntry[] = [];
    const { mcp } = await ws.startUserServers(
      {
        old: fixture('relay', ws.mark, LEGACY),
        modern: fixture('relay', ws.mark),
        plain: fixture('normal', ws.mark),
      },
      { onServerLog: (entry) => logs.push(entry) },
    );
    // Only the 2025 server takes it: 2026-07-28 has no logging/setLevel, `normal` no logging.
    await expect(mcp.setLogLevel('warning')).resolves.toEqual(['old']);
    const levels = async () => unwrap((await mcp.call('mcp__old__levels', {})).text);
    expect(await levels()).toBe('["warning"]');
    expect(unwrap((await mcp.call('mcp__modern__levels', {})).text)).toBe('[]');

    // A new connection of the server is told the level the host set.
    await mcp.reload('old');
    await expect.poll(levels, { timeout: 10_000 }).toBe('["warning"]');

    await mcp.call('mcp__old__emit_log', { level: 'error', text: 'bad \u001b[31mred\u202e' });
    await expect.poll(() => logs.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(logs[0]).toMatchObject({ server: 'old', level: 'error' });
    expect(`${logs[0]?.logger} ${logs[0]?.text}`).not.toMatch(UNSAFE);
    expect(logs[0]?.text).toContain('bad');

    await expect(mcp.setLogLevel('loud' as 'debug')).rejects.toMatchObject({
      code: 'MANAGER_INVALID_OPTIONS',
    });
  });
});
