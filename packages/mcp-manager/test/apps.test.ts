// MCP Apps through the manager, against the fixture that serves one (`apps`): a tool's
// `_meta.ui` kept (checked), an app-only tool kept from the model but callable under the same
// approval, and the app's HTML pinned like a tool — a changed app of a project server is asked
// about (and not served when denied), one of a user's server announced. The app's HTML comes
// from a file the fixture reads on every read, so a test changes it between runs without
// changing the server's definition (which would ask for consent anew: another path).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_DEFAULT_HTML, APP_MIME_TYPE, APP_RESOURCE_UI, APP_URI } from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  Changes,
  HoldingPrompter,
  ScriptedPrompter,
  fixture,
  unwrap,
  useWorkspace,
} from './support/e2e.js';

const ws = useWorkspace();
let htmlFile: string;
beforeEach(async () => {
  htmlFile = path.join(ws.root, 'board.html');
  await writeFile(htmlFile, APP_DEFAULT_HTML);
});

const server = (extra = {}) =>
  fixture('apps', ws.mark, { env: { APP_HTML_FILE: htmlFile }, ...extra });
const CHANGED_HTML =
  '<!doctype html><html><body><h1>Board v2</h1><script>fetch("https://x")</script></body></html>';

describe('MCP Apps: tools', () => {
  it("keeps a tool's _meta.ui, drops an invalid one, and keeps app-only tools from the model", async () => {
    const { prompter, mcp } = await ws.startUserServers({ fx: server() });
    const names = mcp.tools().map((tool) => tool.name);
    expect(names).toContain('mcp__fx__board');
    expect(names).toContain('mcp__fx__bad_ui');
    expect(names).not.toContain('mcp__fx__board_refresh');
    const board = mcp.tools().find((tool) => tool.name === 'mcp__fx__board');
    expect(board?.ui).toEqual({ resourceUri: APP_URI });
    expect(mcp.tools().find((tool) => tool.name === 'mcp__fx__bad_ui')?.ui).toBeUndefined();
    // call() takes it by name, like any offered tool.
    const refresh = mcp.offeredTools().find((tool) => tool.name === 'mcp__fx__board_refresh');
    expect(refresh?.ui).toEqual({ resourceUri: APP_URI, visibility: ['app'] });

    prompter.approve = false;
    await expect(mcp.call('mcp__fx__board_refresh', {})).rejects.toThrow(/declined/);
    expect(prompter.approvals.map((a) => a.name)).toEqual(['mcp__fx__board_refresh']);
    prompter.approve = true;
    expect(unwrap((await mcp.call('mcp__fx__board_refresh', {})).text)).toBe('refreshed');
    expect(prompter.approvals).toHaveLength(2);
  });

  it('an app-only tool is not found by the tool search', async () => {
    const { mcp } = await ws.startUserServers({ fx: server({ exposure: 'search' }) });
    expect(mcp.tools().map((tool) => tool.name)).toEqual(['mcp_tool_search']);
    const found = await mcp.call('mcp_tool_search', { query: 'refreshes the board app', limit: 5 });
    expect(found.text).toContain('mcp__fx__board');
    expect(found.text).not.toContain('board_refresh');
  });
});

describe('MCP Apps: the app, pinned', () => {
  it('serves the HTML exactly as the server sent it, with its _meta.ui', async () => {
    const { prompter, mcp } = await ws.startUserServers({ fx: server() });
    const [app, ...more] = mcp.apps();
    expect(more).toEqual([]);
    expect(app).toMatchObject({
      server: 'fx',
      uri: APP_URI,
      mimeType: APP_MIME_TYPE,
      text: APP_DEFAULT_HTML,
      meta: APP_RESOURCE_UI,
    });
    // Not cleaned: the zero-width space in the page's script is still there.
    expect(app?.text).toContain('\u200b');
    expect(app?.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(prompter.notices).toEqual([]);
  });

  it('a changed app of a project server is asked about; denied, it is not served', async () => {
    await ws.projectServers({ fx: server() });
    const first = new ScriptedPrompter();
    first.answer = 'remember';
    const mcp1 = ws.manager(first);
    await mcp1.start();
    expect(mcp1.apps().map((app) => app.text)).toEqual([APP_DEFAULT_HTML]);
    await mcp1.close();

    await writeFile(htmlFile, CHANGED_HTML);
    const second = new ScriptedPrompter();
    second.answer = 'deny';
    const mcp2 = ws.manager(second);
    await mcp2.start();
    expect(second.consents.map((request) => request.kind)).toEqual(['tools']);
    const changes = second.consents[0]?.toolChanges;
    expect(changes?.changed.map((change) => change.name)).toEqual([`app ${APP_URI}`]);
    expect(changes?.added).toEqual([]);
    expect(mcp2.status()[0]?.state).toBe('denied');
    expect(mcp2.apps()).toEqual([]);
    await mcp2.close();

    const third = new ScriptedPrompter();
    third.answer = 'once';
    const mcp3 = ws.manager(third);
    await mcp3.start();
    expect(third.consents.map((request) => request.kind)).toEqual(['tools']);
    expect(mcp3.apps().map((app) => app.text)).toEqual([CHANGED_HTML]);
    await mcp3.close();
  });

  it("a changed app of a user's server is announced and served", async () => {
    await ws.userServers({ fx: server() });
    const first = new ScriptedPrompter();
    const mcp1 = ws.manager(first);
    await mcp1.start();
    await mcp1.close();

    await writeFile(htmlFile, CHANGED_HTML);
    const second = new ScriptedPrompter();
    const mcp2 = ws.manager(second);
    await mcp2.start();
    expect(second.consents).toEqual([]);
    expect(second.notices).toEqual([
      expect.stringContaining(
        `MCP server "fx" changed its tools since they were last used (changed: app ${APP_URI} (content or metadata))`,
      ),
    ]);
    expect(mcp2.apps().map((app) => app.text)).toEqual([CHANGED_HTML]);
    await mcp2.close();
  });

  it('an app a project server changes while it runs is held back until allowed', async () => {
    await ws.projectServers({ fx: server() });
    const prompter = new HoldingPrompter();
    prompter.answer = 'remember';
    const changes = new Changes();
    const mcp = ws.manager(prompter, { onChange: changes.onChange });
    await mcp.start();
    expect(mcp.apps().map((app) => app.text)).toEqual([APP_DEFAULT_HTML]);
    const seen = changes.seen.length;

    await writeFile(htmlFile, CHANGED_HTML);
    const question = prompter.asked();
    expect(unwrap((await mcp.call('mcp__fx__republish', {})).text)).toBe('republished');
    const request = await question;
    expect(request.toolChanges?.changed.map((change) => change.name)).toEqual([`app ${APP_URI}`]);
    // While the question waits, the app the user allowed is the one served.
    expect(mcp.apps().map((app) => app.text)).toEqual([APP_DEFAULT_HTML]);
    expect(changes.seen.slice(seen)).not.toContainEqual({ server: 'fx', kind: 'resources' });
    prompter.reply('once');
    // The host hears of the app served anew as a change of the resources.
    while (!changes.seen.slice(seen).some((change) => change.kind === 'resources')) {
      await changes.until(changes.seen.length + 1);
    }
    expect(changes.seen.slice(seen)).toContainEqual({ server: 'fx', kind: 'resources' });
    expect(mcp.apps().map((app) => app.text)).toEqual([CHANGED_HTML]);
    await mcp.close();
  });
});
