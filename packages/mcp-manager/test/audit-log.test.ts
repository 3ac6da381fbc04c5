// The audit log through the facade: consent, approvals and calls are appended to
// <home>/audit.jsonl as hashes, chained, and the log verifies; off when the host says so.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CHANGED_DIFF } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { readAuditLog, verifyAuditLog, type AuditEvent } from '@garuda/mcp-audit';
import { InvalidOptionsError } from '../src/index.js';
import { ScriptedPrompter, fixture, useWorkspace, wrapped } from './support/e2e.js';

const ws = useWorkspace();

describe('the audit log', () => {
  it('records consent, approvals and calls as hashes, never the text', async () => {
    const { prompter, mcp } = await ws.startProjectServers(
      { theirs: fixture('normal', ws.mark) },
      'once',
      { rules: { allow: ['mcp.theirs.add'] } },
    );
    await mcp.call('mcp__theirs__echo', { text: 'a secret-ish text' });
    await mcp.call('mcp__theirs__add', { a: 1, b: 2 });
    prompter.approve = false;
    await mcp.call('mcp__theirs__echo', { text: 'no' }).catch(() => undefined);
    await mcp.close();

    const file = path.join(ws.home, 'audit.jsonl');
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 8 });
    const records = await readAuditLog(file);
    expect(
      records.map((r) => [
        r.kind,
        'decision' in r ? r.decision : r.kind === 'call' ? r.outcome : '',
      ]),
    ).toEqual([
      ['consent', 'once'],
      ['pin', 'pinned'],
      ['approval', 'approved'],
      ['call', 'ok'],
      ['approval', 'auto'],
      ['call', 'ok'],
      ['approval', 'declined'],
      ['call', 'declined'],
    ]);
    expect(records[1]).toMatchObject({
      server: 'theirs',
      change: 'first',
      added: expect.any(Number),
      toolsSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const call = records[3];
    expect(call).toMatchObject({
      server: 'theirs',
      tool: 'echo',
      argsSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(records[4]).toMatchObject({ why: 'the allow rule "mcp.theirs.add" matches it' });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('secret-ish');
  });

  it('records the first pin, and a changed tool list the user held back', async () => {
    const modeFile = path.join(ws.root, 'fixture-mode');
    await writeFile(modeFile, 'normal');
    await ws.projectServers({ docs: wrapped(['--mode-file', modeFile], ws.mark) });
    const first = new ScriptedPrompter();
    first.answer = 'remember';
    const mcp1 = ws.manager(first);
    await mcp1.start();
    await mcp1.close();
    await writeFile(modeFile, 'changed');
    const second = new ScriptedPrompter();
    second.answer = 'deny';
    const mcp2 = ws.manager(second);
    await mcp2.start();
    await mcp2.close();

    const file = path.join(ws.home, 'audit.jsonl');
    expect((await verifyAuditLog(file)).ok).toBe(true);
    const pins = (await readAuditLog(file)).filter((r) => r.kind === 'pin');
    expect(pins).toEqual([
      expect.objectContaining({ change: 'first', decision: 'pinned', removed: 0 }),
      expect.objectContaining({
        change: 'changed',
        decision: 'held',
        added: CHANGED_DIFF.added.length,
        removed: CHANGED_DIFF.removed.length,
      }),
    ]);
    const hashes = pins.map((r) => (r.kind === 'pin' ? r.toolsSha256 : ''));
    expect(new Set(hashes).size).toBe(2);
  });

  it('keeps argument and result text only when the host opts in', async () => {
    const { mcp } = await ws.startUserServers(
      { tools: fixture('normal', ws.mark) },
      { storage: { auditLog: { includeText: true } } },
    );
    await mcp.call('mcp__tools__echo', { text: 'kept words' });
    await mcp.close();
    const call = (await readAuditLog(path.join(ws.home, 'audit.jsonl'))).find(
      (r) => r.kind === 'call',
    );
    expect(call).toMatchObject({ argsText: '{"text":"kept words"}' });
    expect(call?.kind === 'call' ? call.resultText : '').toContain('kept words');
  });

  it('writes nothing when the host turns it off', async () => {
    const { mcp } = await ws.startUserServers(
      { tools: fixture('normal', ws.mark) },
      { storage: { auditLog: false } },
    );
    await mcp.call('mcp__tools__echo', { text: 'x' });
    await mcp.close();
    expect(existsSync(path.join(ws.home, 'audit.jsonl'))).toBe(false);
  });

  it("hands every event to the host's sink instead, which says whether it wants text", async () => {
    const events: AuditEvent[] = [];
    const sink = {
      includesText: true,
      append: (event: AuditEvent) => Promise.resolve(events.push(event)),
      flush: async () => {},
    };
    const { mcp } = await ws.startUserServers(
      { tools: fixture('normal', ws.mark) },
      { storage: { auditLog: { sink } } },
    );
    await mcp.call('mcp__tools__echo', { text: 'kept words' });
    await mcp.close();
    expect(existsSync(path.join(ws.home, 'audit.jsonl'))).toBe(false);
    expect(events.map((event) => event.kind)).toContain('call');
    expect(events.find((event) => event.kind === 'call')).toMatchObject({
      argsText: '{"text":"kept words"}',
    });
  });

  it('refuses a sink that cannot take events, or one given with includeText', () => {
    const sink = { includesText: false, append: () => Promise.resolve(), flush: async () => {} };
    for (const auditLog of [{ sink: {} }, { sink, includeText: true }]) {
      const make = () => ws.manager(new ScriptedPrompter(), { storage: { auditLog } } as never);
      expect(make).toThrow(InvalidOptionsError);
      expect(make).toThrow(/^invalid option storage\.auditLog: /);
    }
  });
});
