// Tool pinning through the facade: a server whose tools change behind an unchanged definition
// (a "rug pull"). The fixture's mode comes from a file in the project that the wrapper reads at
// start (see fixtures/fixture-wrapper.mjs): changing the command or its arguments would change
// the definition hash and ask for consent anew, which is a different path. A file outside the
// definition is how a real server changes: the package behind an unchanged command is updated.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CHANGED_DIFF, NORMAL_TOOL_NAMES } from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { ScriptedPrompter, pidsWith, toolNamesOf, useWorkspace, wrapped } from './support/e2e.js';

const ws = useWorkspace();
let modeFile: string;
beforeEach(async () => {
  modeFile = path.join(ws.root, 'fixture-mode');
  await writeFile(modeFile, 'normal');
});

const server = () => wrapped(['--mode-file', modeFile], ws.mark);

describe('project server rug pull', () => {
  it('asks about changed tools with added, removed and changed details; deny → denied, stopped', async () => {
    await ws.projectServers({ docs: server() });
    const first = new ScriptedPrompter();
    first.answer = 'remember';
    const mcp1 = ws.manager(first);
    await mcp1.start();
    expect(first.consents.map((r) => r.kind)).toEqual(['server']);
    expect(mcp1.status()[0]?.state).toBe('connected');
    await mcp1.close();

    await writeFile(modeFile, 'changed');
    const second = new ScriptedPrompter();
    second.answer = 'deny';
    const mcp2 = ws.manager(second);
    await mcp2.start();

    expect(second.consents).toHaveLength(1);
    const [request] = second.consents;
    expect(request?.kind).toBe('tools');
    expect(request?.server).toBe('docs');
    const changes = request?.toolChanges;
    expect(changes?.detailed).toBe(true);
    expect(changes?.added.map((t) => t.name)).toEqual([...CHANGED_DIFF.added]);
    expect(changes?.added[0]?.description).not.toBe('');
    expect(changes?.removed).toEqual([...CHANGED_DIFF.removed]);
    // Every remaining description differs; echo's schema too.
    const remaining = NORMAL_TOOL_NAMES.filter((name) => !CHANGED_DIFF.removed.includes(name));
    expect(changes?.changed.map((t) => t.name)).toEqual([...remaining].sort());
    for (const name of CHANGED_DIFF.schemaChanged) {
      expect(changes?.changed.find((t) => t.name === name)).toMatchObject({
        descriptionChanged: true,
        schemaChanged: true,
      });
    }
    expect(changes?.changed.find((t) => t.name === 'add')).toMatchObject({
      descriptionChanged: true,
      schemaChanged: false,
    });

    expect(mcp2.status()[0]).toMatchObject({
      state: 'denied',
      detail: 'you did not allow its changed tools',
    });
    expect(mcp2.tools()).toEqual([]);
    expect(mcp2.takeNotes()).toEqual([
      'MCP server "docs" is not available (you did not allow its changed tools). Do not pretend to use it.',
    ]);
    await mcp2.close();
    expect(await pidsWith(ws.mark)).toEqual([]);
  });

  it('allow with "remember" updates the pins; "once" does not', async () => {
    await ws.projectServers({ docs: server() });
    const first = new ScriptedPrompter();
    first.answer = 'remember';
    await ws.manager(first).start();

    await writeFile(modeFile, 'changed');
    const once = new ScriptedPrompter();
    once.answer = 'once';
    const mcp2 = ws.manager(once);
    await mcp2.start();
    expect(once.consents.map((r) => r.kind)).toEqual(['tools']);
    expect(mcp2.tools().map((t) => t.tool)).toContain('upload');
    // "once" holds for this session: a reload does not ask again.
    await mcp2.reload('docs');
    expect(once.consents).toHaveLength(1);

    const remember = new ScriptedPrompter();
    remember.answer = 'remember';
    await ws.manager(remember).start();
    expect(remember.consents.map((r) => r.kind)).toEqual(['tools']);

    const after = new ScriptedPrompter();
    const mcp4 = ws.manager(after);
    await mcp4.start();
    expect(after.consents).toEqual([]);
    expect(mcp4.status()[0]?.state).toBe('connected');
  });
});

describe('user server rug pull', () => {
  it('a notice with a summary, and the server stays connected (pins updated)', async () => {
    await ws.userServers({ mine: server() });
    const first = new ScriptedPrompter();
    await ws.manager(first).start();
    expect(first.consents).toEqual([]);
    expect(first.notices).toEqual([]);

    await writeFile(modeFile, 'changed');
    const second = new ScriptedPrompter();
    const mcp2 = ws.manager(second);
    await mcp2.start();

    expect(second.consents).toEqual([]);
    expect(second.notices).toHaveLength(1);
    const [notice] = second.notices;
    expect(notice).toMatch(/^MCP server "mine" changed its tools since they were last used/);
    expect(notice).toContain('added: upload');
    expect(notice).toContain('removed: fail');
    expect(notice).toContain('echo (description, schema)');
    expect(mcp2.status()[0]?.state).toBe('connected');
    expect(toolNamesOf(mcp2)).toEqual(
      [...NORMAL_TOOL_NAMES.filter((n) => n !== 'fail'), 'upload'].sort(),
    );

    // The warning is given once: the new tools are pinned now.
    const third = new ScriptedPrompter();
    await ws.manager(third).start();
    expect(third.notices).toEqual([]);
  });
});
