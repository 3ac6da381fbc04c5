// "Always allow this tool", bound to what was approved (the server's definition, its declared
// capabilities, the tool's input schema), and permission rules with globs: deny > ask > allow.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readAuditLog } from '@garuda/mcp-audit';
import { describe, expect, it } from 'vitest';
import { CallDeclinedError } from '../src/index.js';
import { ScriptedPrompter, fixture, unwrap, useWorkspace, wrapped } from './support/e2e.js';

const ws = useWorkspace();

describe('remembered grants', () => {
  it('"always" runs the tool unasked from then on, in this session and the next', async () => {
    const { prompter, mcp } = await ws.startUserServers({ fx: fixture('normal', ws.mark) });
    prompter.approve = 'always';
    const first = await mcp.call('mcp__fx__echo', { text: 'one' });
    expect(first.approval).toEqual({
      asked: true,
      why: 'the user approved it and chose to always allow it',
      remembered: true,
    });
    expect(prompter.approvals[0]).toMatchObject({ remember: true });

    prompter.approve = false;
    const second = await mcp.call('mcp__fx__echo', { text: 'two' });
    expect(unwrap(second.text)).toBe('two');
    expect(second.approval?.asked).toBe(false);
    expect(second.approval?.why).toMatch(
      /^you chose to always allow this tool \(\d{4}-\d\d-\d\d\)$/,
    );
    // Only that tool: another of the same server still asks.
    await expect(mcp.call('mcp__fx__add', { a: 1, b: 2 })).rejects.toThrow(CallDeclinedError);
    expect(prompter.approvals).toHaveLength(2);
    await mcp.close();

    const next = ws.manager(prompter);
    await next.start();
    expect((await next.call('mcp__fx__echo', { text: 'three' })).approval?.asked).toBe(false);
    expect(prompter.approvals).toHaveLength(2);
    await next.close();

    const kinds = (await readAuditLog(path.join(ws.home, 'audit.jsonl')))
      .filter((r) => r.kind === 'approval')
      .map((r) => (r.kind === 'approval' ? r.decision : ''));
    expect(kinds).toEqual(['always', 'auto', 'declined', 'auto']);
  });

  it('asks again once the declared capabilities change, saying why', async () => {
    const { prompter, mcp } = await ws.startUserServers({
      fx: fixture('normal', ws.mark, { capabilities: ['write'] }),
    });
    prompter.approve = 'always';
    await mcp.call('mcp__fx__echo', { text: 'x' });
    await mcp.close();

    // The user widens what the server may do: the grant was for less.
    const { prompter: again, mcp: widened } = await ws.startUserServers({
      fx: fixture('normal', ws.mark, { capabilities: ['write', 'shell'] }),
    });
    await widened.call('mcp__fx__echo', { text: 'y' });
    expect(again.approvals).toHaveLength(1);
    expect(again.approvals[0]?.why).toBe(
      'you chose to always allow this tool, but since then the capabilities you declared for its server changed: it asks again',
    );
    expect(again.approvals[0]?.remember).toBe(true);
  });

  it('asks again once the server changes the tool’s input schema', async () => {
    const modeFile = path.join(ws.root, 'fixture-mode');
    await writeFile(modeFile, 'normal');
    const entry = wrapped(['--mode-file', modeFile], ws.mark);
    const { prompter, mcp } = await ws.startUserServers({ fx: entry });
    prompter.approve = 'always';
    await mcp.call('mcp__fx__echo', { text: 'x' });
    await mcp.call('mcp__fx__add', { a: 1, b: 2 });
    await mcp.close();

    // A user's server that changes is announced and used, but the grant no longer covers echo,
    // whose schema now asks for more (add kept its schema: only its description changed).
    await writeFile(modeFile, 'changed');
    const { prompter: again, mcp: changed } = await ws.startUserServers({ fx: entry });
    await changed.call('mcp__fx__echo', { text: 'y', cc: 'z' });
    expect(again.approvals.map((a) => [a.name, a.why])).toEqual([
      [
        'mcp__fx__echo',
        'you chose to always allow this tool, but since then its input schema changed: it asks again',
      ],
    ]);
    expect((await changed.call('mcp__fx__add', { a: 1, b: 2 })).approval?.asked).toBe(false);
  });

  it('never remembers "always" for a destructive server or under an ask rule', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      {
        wiper: fixture('normal', ws.mark, { capabilities: ['irreversible'] }),
        fx: fixture('normal', ws.mark),
      },
      { rules: { ask: ['mcp.fx.echo'] } },
    );
    prompter.approve = 'always';
    for (let n = 0; n < 2; n += 1) {
      expect((await mcp.call('mcp__wiper__echo', { text: 'x' })).approval).toEqual({
        asked: true,
        why: 'the user approved it',
      });
      await mcp.call('mcp__fx__echo', { text: 'x' });
    }
    expect(prompter.approvals.map((a) => [a.name, a.remember])).toEqual([
      ['mcp__wiper__echo', false],
      ['mcp__fx__echo', false],
      ['mcp__wiper__echo', false],
      ['mcp__fx__echo', false],
    ]);
    expect(prompter.approvals[1]?.why).toBe(
      'the ask rule "mcp.fx.echo" asks before every call of it',
    );
  });
});

describe('permission rules', () => {
  it('deny > ask > allow, with globs, in every approval mode', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      { fx: fixture('normal', ws.mark, { capabilities: ['read'] }) },
      {
        rules: {
          approvalMode: 'trusted',
          allow: ['mcp.*'],
          ask: ['mcp.f*.ad*'],
          deny: ['mcp.*.ec*'],
        },
      },
    );
    const denied = await mcp.call('mcp__fx__echo', { text: 'x' }).catch((e: unknown) => e);
    expect(CallDeclinedError.isInstance(denied)).toBe(true);
    expect(denied).toMatchObject({ code: 'MANAGER_CALL_DECLINED', rule: 'mcp.*.ec*' });
    expect((denied as Error).message).toContain('"mcp.*.ec*" denies calls of mcp__fx__echo');
    expect(prompter.approvals).toEqual([]);

    await mcp.call('mcp__fx__add', { a: 1, b: 1 });
    expect(prompter.approvals.map((a) => a.why)).toEqual([
      'the ask rule "mcp.f*.ad*" asks before every call of it',
    ]);
    expect((await mcp.call('mcp__fx__cwd', {})).approval).toEqual({
      asked: false,
      why: 'the allow rule "mcp.*" matches it',
    });
    await mcp.close();
    const approvals = (await readAuditLog(path.join(ws.home, 'audit.jsonl'))).filter(
      (r) => r.kind === 'approval',
    );
    expect(approvals[0]).toMatchObject({
      decision: 'denied',
      why: 'the deny rule "mcp.*.ec*" matches it',
    });
  });

  it('an invalid rule is ignored with a notice, never widened', async () => {
    const prompter = new ScriptedPrompter();
    await ws.userServers({ fx: fixture('normal', ws.mark) });
    const mcp = ws.manager(prompter, { rules: { allow: ['mcp.fx'], deny: ['fx.*'] } });
    await mcp.start();
    expect(prompter.notices).toEqual(
      expect.arrayContaining([
        expect.stringContaining('An MCP deny rule is ignored: "fx.*" does not start with "mcp."'),
        expect.stringContaining('An MCP allow rule is ignored: "mcp.fx" names no tool'),
      ]),
    );
    await mcp.call('mcp__fx__echo', { text: 'x' });
    expect(prompter.approvals).toHaveLength(1);
  });
});
