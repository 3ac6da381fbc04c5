// A running server's tools/list_changed goes through the pin check, never around it: added and
// changed tools of a project server wait for the user's consent, a user server's change is
// announced, removed tools leave tools() and answer with a clean error, refreshes are coalesced,
// and the host hears of each change once through onChange.
import { ADDED_TOOL } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import type { McpManager } from '../src/index.js';
import {
  Changes,
  HoldingPrompter,
  fixture,
  toolNamesOf,
  unwrap,
  useWorkspace,
} from './support/e2e.js';

const ws = useWorkspace();

const added = `mcp__dyn__${ADDED_TOOL}`;

/** The dynamic fixture as a project server, allowed ("remember"), its tools questions held. */
async function startProjectDynamic() {
  await ws.projectServers({ dyn: fixture('dynamic', ws.mark) });
  const changes = new Changes();
  const prompter = new HoldingPrompter();
  prompter.answer = 'remember';
  const mcp = ws.manager(prompter, { onChange: changes.onChange });
  await mcp.start();
  return { changes, prompter, mcp };
}

async function callText(mcp: McpManager, name: string, args: object = {}): Promise<string> {
  return unwrap((await mcp.call(name, args)).text);
}

describe('tools/list_changed', () => {
  it("a user server's added tool is announced, pinned and usable; a removed one answers cleanly", async () => {
    const changes = new Changes();
    const { mcp, prompter } = await ws.startUserServers(
      { dyn: fixture('dynamic', ws.mark) },
      { onChange: changes.onChange },
    );
    const before = changes.seen.length;
    expect(toolNamesOf(mcp)).not.toContain(ADDED_TOOL);

    expect(await callText(mcp, 'mcp__dyn__add_tool')).toBe(`added ${ADDED_TOOL}`);
    await changes.until(before + 1);
    expect(changes.seen.at(-1)).toEqual({ server: 'dyn', kind: 'tools' });
    expect(toolNamesOf(mcp)).toContain(ADDED_TOOL);
    expect(prompter.notices.join('\n')).toContain(
      `MCP server "dyn" changed its tools while it ran (added: ${ADDED_TOOL})`,
    );
    expect(await callText(mcp, added)).toBe(`${ADDED_TOOL} ran`);

    expect(await callText(mcp, 'mcp__dyn__remove_tool', { name: 'echo' })).toBe('removed echo');
    await changes.until(before + 2);
    expect(toolNamesOf(mcp)).not.toContain('echo');
    const approvals = prompter.approvals.length;
    const gone = await mcp.call('mcp__dyn__echo', { text: 'hi' });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/^<mcp_result server="dyn" tool="echo">/);
    expect(unwrap(gone.text)).toContain('its server "dyn" removed it while it ran');
    // Nothing was sent, so nothing was asked.
    expect(prompter.approvals.length).toBe(approvals);
  });

  it("a project server's added tool stays inactive until the user allows it", async () => {
    const { changes, prompter, mcp } = await startProjectDynamic();
    const listed = JSON.stringify(mcp.tools());
    const seen = changes.seen.length;

    const question = prompter.asked();
    await callText(mcp, 'mcp__dyn__add_tool');
    const request = await question;
    expect(request.kind).toBe('tools');
    expect(request.toolChanges?.added.map((tool) => tool.name)).toEqual([ADDED_TOOL]);
    // While the question is open, nothing new is offered and the list is byte-stable.
    expect(toolNamesOf(mcp)).not.toContain(ADDED_TOOL);
    expect(JSON.stringify(mcp.tools())).toBe(listed);
    expect(changes.seen.length).toBe(seen);

    prompter.reply('once');
    await changes.until(seen + 1);
    expect(toolNamesOf(mcp)).toContain(ADDED_TOOL);
    expect(await callText(mcp, added)).toBe(`${ADDED_TOOL} ran`);
  });

  it('a declined change keeps the changed tool held back, and no second question is asked', async () => {
    const { changes, prompter, mcp } = await startProjectDynamic();
    const seen = changes.seen.length;

    const question = prompter.asked();
    await callText(mcp, 'mcp__dyn__change_tool', { name: 'echo', description: 'Now evil.' });
    const request = await question;
    expect(request.toolChanges?.changed.map((tool) => tool.name)).toEqual(['echo']);
    // The changed tool left the list at once, before any answer.
    await changes.until(seen + 1);
    expect(toolNamesOf(mcp)).not.toContain('echo');
    const held = await mcp.call('mcp__dyn__echo', { text: 'x' });
    expect(held.isError).toBe(true);
    expect(unwrap(held.text)).toContain('held back until the user allows the change');

    prompter.reply('deny');
    await expect.poll(() => prompter.notices.join('\n')).toContain('Reload it to be asked again');
    await callText(mcp, 'mcp__dyn__add_tool');
    // The refresh after add_tool ends without a question; the next refresh shows it is done.
    await callText(mcp, 'mcp__dyn__remove_tool', { name: 'add' });
    await changes.until(seen + 2);
    expect(toolNamesOf(mcp)).not.toContain('add');
    expect(toolNamesOf(mcp)).not.toContain(ADDED_TOOL);
    expect(prompter.consents.filter((r) => r.kind === 'tools')).toHaveLength(1);
  });

  it('a flood of notifications is coalesced: a few refreshes, no change, tools() byte-stable', async () => {
    const logs: string[] = [];
    const changes = new Changes();
    const { mcp } = await ws.startUserServers(
      { dyn: fixture('dynamic', ws.mark) },
      { onChange: changes.onChange, logger: { debug: (message) => logs.push(message) } },
    );
    const listed = JSON.stringify(mcp.tools());
    const seen = changes.seen.length;
    const refreshes = () =>
      logs.filter((line) => line.includes('listing again what changed')).length;

    expect(await callText(mcp, 'mcp__dyn__flood_changes', { count: 300 })).toBe('sent 300');
    await callText(mcp, 'mcp__dyn__add_tool');
    await changes.until(seen + 1);
    expect(JSON.parse(JSON.stringify(changes.seen.slice(seen)))).toEqual([
      { server: 'dyn', kind: 'tools' },
    ]);
    expect(refreshes()).toBeGreaterThanOrEqual(1);
    expect(refreshes()).toBeLessThanOrEqual(4);
    expect(JSON.stringify(mcp.tools())).not.toBe(listed);
    const now = JSON.stringify(mcp.tools());
    expect(JSON.stringify(mcp.tools())).toBe(now);
  });

  it('onChange also hears of a server that leaves tools() by a reload', async () => {
    const changes = new Changes();
    const { mcp } = await ws.startUserServers(
      { dyn: fixture('dynamic', ws.mark) },
      { onChange: changes.onChange },
    );
    const seen = changes.seen.length;
    expect(seen).toBe(1);
    await mcp.reload('dyn');
    // Stopped (its tools leave), then connected again (they are back).
    expect(changes.seen.slice(seen)).toEqual([
      { server: 'dyn', kind: 'tools' },
      { server: 'dyn', kind: 'tools' },
    ]);
  });
});
