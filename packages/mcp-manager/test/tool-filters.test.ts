// Tool filters through the facade: allowTools and denyTools (deny wins), enable() and disable()
// for the session, hidden tools that cannot be called, and status() and hiddenTools() saying
// how many are hidden and why.
import { describe, expect, it } from 'vitest';
import { McpManagerErrorCode, ToolHiddenError, UnknownToolError } from '../src/index.js';
import type { McpManager } from '../src/index.js';
import { Changes, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** The model-facing names of the tools the model gets. */
function offered(mcp: McpManager): string[] {
  return mcp.tools().map((tool) => tool.name);
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('allowTools and denyTools', () => {
  it('offers only the allowed tools, a deny wins, and a hidden tool is not called', async () => {
    const { prompter, mcp } = await ws.startUserServers({
      tools: fixture('normal', ws.mark, {
        allowTools: ['e*', 'add', 'content'],
        denyTools: ['env', 'nothing*'],
      }),
    });
    expect(offered(mcp)).toEqual(['mcp__tools__add', 'mcp__tools__content', 'mcp__tools__echo']);

    const denied = await mcp.call('mcp__tools__env', {}).catch((e: unknown) => e);
    expect(ToolHiddenError.isInstance(denied)).toBe(true);
    expect((denied as ToolHiddenError).code).toBe(McpManagerErrorCode.TOOL_HIDDEN);
    expect((denied as ToolHiddenError).reason).toBe('denied');
    expect((denied as Error).message).toContain('"denyTools" pattern "env" hides it');

    const notAllowed = await mcp.call('mcp__tools__slow', {}).catch((e: unknown) => e);
    expect((notAllowed as ToolHiddenError).reason).toBe('not-allowed');
    expect((notAllowed as Error).message).toContain('"allowTools" does not list it');
    // Nothing was asked for the hidden tools.
    expect(prompter.approvals).toEqual([]);

    expect(mcp.hiddenTools()).toEqual([
      { name: 'mcp__tools__slow', server: 'tools', tool: 'slow', reason: 'not-allowed' },
      { name: 'mcp__tools__fail', server: 'tools', tool: 'fail', reason: 'not-allowed' },
      { name: 'mcp__tools__env', server: 'tools', tool: 'env', reason: 'denied', pattern: 'env' },
      { name: 'mcp__tools__cwd', server: 'tools', tool: 'cwd', reason: 'not-allowed' },
    ]);
    expect(mcp.status()[0]).toMatchObject({ tools: 3, hiddenTools: 4 });

    // An offered tool still runs.
    expect(unwrap((await mcp.call('mcp__tools__add', { a: 1, b: 2 })).text)).toBe('3');
  });

  it('hides every tool with an empty allow list', async () => {
    const { mcp } = await ws.startUserServers({
      tools: fixture('normal', ws.mark, { allowTools: [] }),
    });
    expect(mcp.tools()).toEqual([]);
    expect(mcp.status()[0]).toMatchObject({ state: 'connected', tools: 0, hiddenTools: 7 });
  });

  it("applies a project's filters; changing them asks nothing, declaring capabilities asks again", async () => {
    const first = await ws.startProjectServers(
      { tools: fixture('normal', ws.mark, { denyTools: ['env'] }) },
      'remember',
    );
    expect(first.prompter.consents).toHaveLength(1);
    expect(offered(first.mcp)).not.toContain('mcp__tools__env');
    await first.mcp.close();

    const filtered = await ws.startProjectServers(
      { tools: fixture('normal', ws.mark, { denyTools: ['env', 'cwd'] }) },
      'deny',
    );
    expect(filtered.prompter.consents).toEqual([]);
    expect(filtered.mcp.status()[0]).toMatchObject({ state: 'connected', hiddenTools: 2 });
    await filtered.mcp.close();

    // Declaring it read-only would let its calls run without asking: that is consent again.
    const lowered = await ws.startProjectServers(
      { tools: fixture('normal', ws.mark, { capabilities: ['read'] }) },
      'deny',
    );
    expect(lowered.prompter.consents).toHaveLength(1);
    expect(lowered.mcp.status()[0]?.state).toBe('denied');
  });
});

describe('enable() and disable()', () => {
  it('hides and offers a tool for the session, telling onChange', async () => {
    const changes = new Changes();
    const { mcp } = await ws.startUserServers(
      { tools: fixture('normal', ws.mark, { allowTools: ['echo'], denyTools: ['env'] }) },
      { onChange: changes.onChange },
    );
    expect(offered(mcp)).toEqual(['mcp__tools__echo']);
    // The start told its own change.
    const atStart = changes.seen.length;

    expect(mcp.enable('mcp__tools__add')).toEqual({
      name: 'mcp__tools__add',
      server: 'tools',
      tool: 'add',
      offered: true,
      changed: true,
    });
    expect(offered(mcp)).toEqual(['mcp__tools__add', 'mcp__tools__echo']);
    await changes.until(atStart + 1);
    expect(changes.seen.slice(atStart)).toEqual([{ server: 'tools', kind: 'tools' }]);
    // Enabling again changes nothing and tells nobody.
    expect(mcp.enable('mcp__tools__add').changed).toBe(false);
    expect(changes.seen).toHaveLength(atStart + 1);

    const disabled = mcp.disable('mcp__tools__echo');
    expect(disabled).toMatchObject({ offered: false, changed: true });
    expect(offered(mcp)).toEqual(['mcp__tools__add']);
    expect(await codeOf(mcp.call('mcp__tools__echo', { text: 'x' }))).toBe('MANAGER_TOOL_HIDDEN');
    expect(mcp.hiddenTools().find((t) => t.tool === 'echo')?.reason).toBe('disabled');

    // A deny wins over enable().
    const denied = (() => {
      try {
        return mcp.enable('mcp__tools__env');
      } catch (error) {
        return error;
      }
    })();
    expect(ToolHiddenError.isInstance(denied)).toBe(true);
    expect((denied as Error).message).toContain('a deny wins');
    expect((denied as Error).message).toContain('mcp.json');
    expect(offered(mcp)).not.toContain('mcp__tools__env');

    // The answers outlast a reload.
    await mcp.reload('tools');
    expect(offered(mcp)).toEqual(['mcp__tools__add']);
  });

  it('refuses a name no server lists', async () => {
    const { mcp } = await ws.startUserServers({ tools: fixture('normal', ws.mark) });
    expect(() => mcp.enable('mcp__tools__nope')).toThrow(UnknownToolError);
    expect(() => mcp.disable(42 as unknown as string)).toThrow(UnknownToolError);
  });
});
