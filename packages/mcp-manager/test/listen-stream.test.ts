// A 2026-07-28 server's change stream (`subscriptions/listen`) never holds the server's start:
// a stream framed as newline-delimited JSON on an open `application/json` response (as the
// conformance repository's example server frames it) comes up and tells list changes, one
// that is never acknowledged leaves the server connected and usable, and closing the manager
// (or cancelling the start) closes the stream.
import { LATE_TOOL, LIBRARY_URIS, startListenLineFixture, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { Changes, ScriptedPrompter, toolNamesOf, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** Far longer than any start needs: a start that waits on the stream fails only after it. */
const START_MS = 20_000;

async function remote(options: Parameters<typeof startListenLineFixture>[0] = {}) {
  const fixture = await startListenLineFixture(options);
  ws.defer(() => fixture.close());
  await ws.userServers({ live: { url: fixture.url.href } });
  return fixture;
}

describe('a 2026-07-28 server with a newline-delimited listen stream', () => {
  it('connects, its tools work, and a tools change told on the stream reaches the manager', async () => {
    const fixture = await remote();
    const changes = new Changes();
    const mcp = ws.manager(new ScriptedPrompter(), {
      onChange: changes.onChange,
      timeouts: { startMs: START_MS },
    });
    await mcp.start();
    expect(mcp.status()[0]).toMatchObject({ name: 'live', state: 'connected' });
    const echoed = await mcp.call('mcp__live__echo', { text: 'over a listening server' });
    expect(unwrap(echoed.text)).toBe('over a listening server');

    // The stream is up (acknowledged) once the start is done, so a change now is told on it.
    expect(fixture.listens).toBe(1);
    const seen = changes.seen.length;
    expect(fixture.addTool()).toBe(1);
    await changes.until(seen + 1);
    expect(changes.seen.at(-1)).toEqual({ server: 'live', kind: 'tools' });
    expect(toolNamesOf(mcp)).toContain(LATE_TOOL);
    expect(unwrap((await mcp.call(`mcp__live__${LATE_TOOL}`, {})).text)).toBe(`${LATE_TOOL} ran`);

    await mcp.close();
    await waitFor(() => fixture.openStreams === 0);
  });

  it('connects when the listen is never acknowledged, and closing the manager ends the stream', async () => {
    const fixture = await remote({ listen: 'held' });
    const logs: string[] = [];
    const mcp = ws.manager(new ScriptedPrompter(), {
      timeouts: { startMs: START_MS },
      logger: { debug: (message) => logs.push(message) },
    });
    await mcp.start();
    expect(mcp.status()[0]).toMatchObject({ name: 'live', state: 'connected' });
    // Connected while the listen is still unanswered: the start did not wait for it.
    expect(fixture.openStreams).toBe(1);
    const echoed = await mcp.call('mcp__live__echo', { text: 'still usable' });
    expect(unwrap(echoed.text)).toBe('still usable');

    await mcp.close();
    await waitFor(() => fixture.openStreams === 0);
  });

  it('a stream acknowledged after the start tells changes from then on', async () => {
    const fixture = await remote({ listen: 'held' });
    const changes = new Changes();
    const logs: string[] = [];
    const mcp = ws.manager(new ScriptedPrompter(), {
      onChange: changes.onChange,
      timeouts: { startMs: START_MS },
      logger: { debug: (message) => logs.push(message) },
    });
    await mcp.start();
    expect(mcp.status()[0]).toMatchObject({ name: 'live', state: 'connected' });
    expect(logs.join('\n')).toContain('its change stream was not acknowledged within 2 s');

    expect(fixture.acknowledge()).toBe(1);
    await waitFor(() => logs.some((line) => line.includes('came up after it connected')));
    const seen = changes.seen.length;
    expect(fixture.addTool()).toBe(1);
    await changes.until(seen + 1);
    expect(toolNamesOf(mcp)).toContain(LATE_TOOL);
  });

  it('a stream the server ends leaves the server connected and usable', async () => {
    const fixture = await remote();
    const logs: string[] = [];
    const mcp = ws.manager(new ScriptedPrompter(), {
      timeouts: { startMs: START_MS },
      logger: { debug: (message) => logs.push(message) },
    });
    await mcp.start();
    fixture.endStreams();
    await waitFor(() => logs.some((line) => line.includes('its change stream ended')));
    expect(mcp.status()[0]).toMatchObject({ name: 'live', state: 'connected' });
    const echoed = await mcp.call('mcp__live__echo', { text: 'after the stream' });
    expect(unwrap(echoed.text)).toBe('after the stream');
  });

  it('a resource subscription on such a stream is agreed, tells updates, and closes on unsubscribe', async () => {
    const fixture = await remote({ library: true });
    const changes = new Changes();
    const mcp = ws.manager(new ScriptedPrompter(), {
      onChange: changes.onChange,
      timeouts: { startMs: START_MS },
    });
    await mcp.start();
    expect(fixture.openStreams).toBe(1);
    await mcp.subscribeResource('live', LIBRARY_URIS.readme);
    expect(fixture.openStreams).toBe(2);
    const seen = changes.seen.length;
    expect(fixture.updateResource(LIBRARY_URIS.readme)).toBe(1);
    await changes.until(seen + 1);
    expect(changes.seen.at(-1)).toEqual({
      server: 'live',
      kind: 'resource',
      uri: LIBRARY_URIS.readme,
      resourceUri: LIBRARY_URIS.readme,
    });

    await mcp.unsubscribeResource('live', LIBRARY_URIS.readme);
    await waitFor(() => fixture.openStreams === 1);
  });

  it('a start cancelled while its listen waits ends, and the stream with it', async () => {
    const fixture = await remote({ listen: 'held' });
    const mcp = ws.manager(new ScriptedPrompter(), { timeouts: { startMs: START_MS } });
    const started = mcp.start();
    await waitFor(() => fixture.openStreams === 1);
    await mcp.close();
    await expect(started).rejects.toThrow(/was closed/);
    await waitFor(() => fixture.openStreams === 0);
  });
});
