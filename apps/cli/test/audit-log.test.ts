// The audit log as the CLI's own processes leave it: every command that opens the MCP manager,
// one after another and two at once on one home (two gateways each making a call among them),
// and then `audit --verify` says the chain is whole, with every call recorded once. An edited,
// cut or reordered line is still found.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '@garuda/mcp-transport';
import { LIBRARY_URIS } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN } from './support/paths.js';
import { type RunResult } from './support/run.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

const MARK = 'garuda-cli-audit';

/** Every command that opens the manager, each with arguments that make it do its work. */
const COMMANDS: readonly (readonly string[])[] = [
  ['status'],
  ['status'],
  ['tools'],
  ['tools', 'fx', '--json'],
  ['call', 'fx/echo', '{"text":"one"}', '--yes'],
  ['resources'],
  ['read', 'lib', LIBRARY_URIS.readme],
  ['prompts', 'lib'],
  ['prompt', 'lib/review', '{"code":"x"}'],
  ['list'],
  ['doctor'],
  ['logout', 'fx'],
];

function auditFile(): string {
  return path.join(world.home, 'audit.jsonl');
}

async function records(): Promise<Record<string, unknown>[]> {
  const text = await readFile(auditFile(), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** `garuda-mcp serve --yes` driven by a host that makes one call once `go` resolves. */
async function gatewayCall(go: Promise<void>): Promise<string> {
  const transport = new ProcessTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--yes'],
    env: world.env(),
    cwd: world.root,
  });
  const host = new Client({ name: 'audit-host', version: '1.0.0' });
  try {
    await host.connect(transport);
    await go;
    const result = await host.callTool({ name: 'fx__echo', arguments: { text: 'gateway' } });
    const blocks = (result.content ?? []) as { text?: string }[];
    return blocks.map((block) => block.text ?? '').join('\n');
  } finally {
    await host.close();
  }
}

async function verify(): Promise<RunResult> {
  return world.run(['audit', '--verify']);
}

describe('the audit log across CLI processes on one home', () => {
  it('stays whole through every command in turn and two at once, and every call is in it', async () => {
    await world.userServers({
      fx: fixtureEntry('normal', MARK),
      lib: fixtureEntry('library', MARK),
    });
    for (const args of COMMANDS) {
      const result = await world.run(args);
      expect({ args, stderr: result.stderr }).not.toEqual({
        args,
        stderr: expect.stringContaining('audit log could not be written') as unknown,
      });
    }
    // A run with nothing to record (the second status) adds no line.
    const turns = await verify();
    expect(turns.stderr).toContain('The audit log is unbroken');
    expect(turns.code).toBe(0);

    const pairs: (readonly (readonly string[])[])[] = [
      [['status'], ['status']],
      [
        ['call', 'fx/echo', '{"text":"a"}', '--yes'],
        ['call', 'fx/echo', '{"text":"b"}', '--yes'],
      ],
      [['tools'], ['doctor']],
      [['call', 'fx/add', '{"a":1,"b":2}', '--yes'], ['status']],
    ];
    for (const pair of pairs) {
      const results = await Promise.all(pair.map((args) => world.run(args)));
      for (const result of results) expect(result.code).toBe(0);
    }
    // Two gateways on one home, each making one allowed call at the same moment.
    let release: () => void = () => {};
    const go = new Promise<void>((resolve) => (release = resolve));
    const both = Promise.all([gatewayCall(go), gatewayCall(go)]);
    release();
    expect(await both).toEqual([
      expect.stringContaining('gateway'),
      expect.stringContaining('gateway'),
    ]);

    const verdict = await verify();
    expect(verdict.code).toBe(0);
    const all = await records();
    expect(verdict.stderr).toContain(`unbroken: ${String(all.length)} lines`);
    expect(all.map((record) => record.seq)).toEqual(all.map((_, index) => index + 1));
    const calls = all.filter((record) => record.kind === 'call');
    // One call in turn, two pairs of calls, one beside a status, and the two gateways' calls.
    expect(
      calls.map((record) => `${String(record.tool)} ${String(record.outcome)}`).sort(),
    ).toEqual([...Array<string>(5).fill('echo ok'), 'add ok'].sort());
  }, 300_000);

  it('still finds an edited, cut or reordered line (exit 1, the line named)', async () => {
    await world.userServers({ fx: fixtureEntry('normal', MARK) });
    for (const text of ['one', 'two', 'three']) {
      const result = await world.run(['call', 'fx/echo', JSON.stringify({ text }), '--yes']);
      expect(result.code).toBe(0);
    }
    expect((await verify()).code).toBe(0);
    const original = await readFile(auditFile(), 'utf8');
    const lines = original.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const broken = async (text: string, line: number) => {
      await writeFile(auditFile(), text);
      const verdict = await verify();
      expect(verdict.code).toBe(1);
      expect(verdict.stderr).toContain(`is broken at line ${String(line)}`);
    };

    const edited = [...lines];
    edited[1] = (edited[1] ?? '').replace(/"server":"fx"/, '"server":"fy"');
    expect(edited[1]).not.toBe(lines[1]);
    await broken(`${edited.join('\n')}\n`, 3);

    await broken(original.slice(0, -20), lines.length);

    const reordered = [...lines];
    [reordered[1], reordered[2]] = [reordered[2] ?? '', reordered[1] ?? ''];
    await broken(`${reordered.join('\n')}\n`, 2);

    await writeFile(auditFile(), original);
    expect((await verify()).code).toBe(0);
  });
});
