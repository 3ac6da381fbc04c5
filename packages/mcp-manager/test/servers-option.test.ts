// Servers from code (the `servers` option): the host's own, so they start without consent and
// with every other guarantee; a file's server of the same name gives way with a notice.
import path from 'node:path';
import { NORMAL_TOOL_NAMES } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../src/index.js';
import { SANDBOX, ScriptedPrompter, fixture, toolNamesOf, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

describe('the servers option', () => {
  it('starts a server from code in the sandbox, as the user’s own: no consent, calls approved', async () => {
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter, { servers: { demo: fixture('normal', ws.mark) } as never });
    await mcp.start();

    expect(prompter.consents).toEqual([]);
    const [row] = mcp.status();
    expect(row).toMatchObject({ name: 'demo', source: 'user', state: 'connected' });
    expect(row?.sandbox.kind).toBe(SANDBOX.kind);
    expect(toolNamesOf(mcp)).toEqual([...NORMAL_TOOL_NAMES].sort());

    const result = await mcp.call('mcp__demo__echo', { text: 'from code' });
    expect(result.text).toBe('<mcp_result server="demo" tool="echo">\nfrom code\n</mcp_result>');
    expect(prompter.approvals.map((p) => p.name)).toEqual(['mcp__demo__echo']);
  });

  it('comes before the user’s file: the file’s server of that name is ignored, with a notice naming the option', async () => {
    await ws.userServers({
      demo: fixture('huge', ws.mark),
      other: fixture('normal', ws.mark),
    });
    await ws.projectServers({ other2: fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter, { servers: { demo: fixture('normal', ws.mark) } as never });
    await mcp.start();

    expect(mcp.status().map((r) => [r.name, r.source])).toEqual([
      ['demo', 'user'],
      ['other', 'user'],
      ['other2', 'project'],
    ]);
    expect(mcp.problems().map((p) => [p.code, p.file, p.server])).toEqual([
      ['NAME_CLASH', path.join(ws.home, 'mcp.json'), 'demo'],
    ]);
    const notice = prompter.notices.find((n) => n.startsWith('MCP configuration:'));
    expect(notice).toContain('is also given by McpManager option "servers", which comes first');
    // The project's server still asks (and was denied by this prompter).
    expect(prompter.consents.map((c) => c.server)).toEqual(['other2']);
  });

  it('a bad server in the option is a notice, and the others start', async () => {
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter, {
      servers: {
        good: fixture('normal', ws.mark),
        typo: { ...fixture('normal', ws.mark), netwrk: true },
      } as never,
    });
    await mcp.start();
    expect(mcp.status().map((r) => r.name)).toEqual(['good']);
    expect(prompter.notices.filter((n) => n.startsWith('MCP configuration:'))).toEqual([
      expect.stringMatching(
        /^MCP configuration: McpManager option "servers": server "typo": .*"netwrk"/,
      ),
    ]);
  });

  it.each([
    ['a list', []],
    ['a string', 'demo'],
    ['null', null],
  ])('servers as %s is refused when the manager is made', (_, servers) => {
    expect(() => ws.manager(new ScriptedPrompter(), { servers: servers as never })).toThrow(
      InvalidOptionsError,
    );
  });
});
