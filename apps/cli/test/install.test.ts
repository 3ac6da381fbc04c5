// garuda-mcp install <host>: the entry lands in the host's own file with every other byte kept,
// nothing is written without a yes, a file it cannot edit safely is left alone, and the entry
// it writes really starts the gateway (a real SDK client runs it as the host would).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '@garuda/mcp-transport';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { BIN } from './support/paths.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

const entry = () => ({ command: process.execPath, args: [BIN, 'serve', '--root', world.root] });
const CURSOR = `// my servers
{
\t"mcpServers": {
\t\t"notes": { "command": "notes-server", "args": ["--fast"] }, // keep me
\t},
\t"other": [1, 2, 3]
}
`;

describe('garuda-mcp install', () => {
  it('adds the entry to Cursor\u2019s file and keeps every other byte (comments, tabs, a trailing comma)', async () => {
    const file = await world.putUserFile('.cursor/mcp.json', CURSOR);
    const result = await world.run(['install', 'cursor', '--yes']);
    expect(result.stderr).toContain(`garuda-mcp install cursor adds this entry to ${file}`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`cursor: added the garuda entry to ${file}`);
    const after = await readFile(file, 'utf8');
    // Exactly one insertion, right after the last server; the rest is the same bytes.
    expect(after).toBe(
      CURSOR.replace('["--fast"] }', `["--fast"] },\n\t\t"garuda": ${JSON.stringify(entry())}`),
    );
    const parsed = parse(after, [], { allowTrailingComma: true }) as {
      mcpServers: Record<string, unknown>;
      other: number[];
    };
    expect(parsed.mcpServers.garuda).toEqual(entry());
    expect(parsed.mcpServers.notes).toEqual({ command: 'notes-server', args: ['--fast'] });
    expect(parsed.other).toEqual([1, 2, 3]);

    const again = await world.run(['install', 'cursor', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already in');
    expect(await readFile(file, 'utf8')).toBe(after);
  });

  it('makes Claude Desktop\u2019s file when there is none (mode 0600), and VS Code\u2019s entry says stdio', async () => {
    expect((await world.run(['install', 'claude-desktop', '--yes'])).code).toBe(0);
    const desktop = path.join(world.userHome, '.config/Claude/claude_desktop_config.json');
    expect(JSON.parse(await readFile(desktop, 'utf8'))).toEqual({
      mcpServers: { garuda: entry() },
    });
    expect((await stat(desktop)).mode & 0o777).toBe(0o600);

    expect((await world.run(['install', 'vscode', '--yes'])).code).toBe(0);
    const vscode = path.join(world.userHome, '.config/Code/User/mcp.json');
    expect(JSON.parse(await readFile(vscode, 'utf8'))).toEqual({
      servers: { garuda: { type: 'stdio', ...entry() } },
    });
  });

  it('appends a table to Codex\u2019s TOML, leaving what was there untouched', async () => {
    const before = 'model = "o4"\n\n[mcp_servers.notes]\ncommand = "notes-server"\n';
    const file = await world.putUserFile('.codex/config.toml', before);
    expect((await world.run(['install', 'codex', '--yes'])).code).toBe(0);
    const after = await readFile(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toBe(
      `\n[mcp_servers.garuda]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${entry()
        .args.map((arg) => JSON.stringify(arg))
        .join(', ')}]\n`,
    );
    const again = await world.run(['install', 'codex', '--yes']);
    expect(again.stdout).toContain('already has [mcp_servers.garuda]');
    expect(await readFile(file, 'utf8')).toBe(after);
  });

  it('ReDoS: finds its table in a Codex TOML of 200 000 empty lines in linear time', async () => {
    const before = `model = "o4"\n${'\n'.repeat(200_000)}[mcp_servers.notes]\ncommand = "notes-server"\n`;
    const file = await world.putUserFile('.codex/config.toml', before);
    // The time limit only catches a hang: a pattern that reads every following line again from
    // each line's start takes many minutes on this file.
    expect((await world.run(['install', 'codex', '--yes'], { timeoutMs: 120_000 })).code).toBe(0);
    const again = await world.run(['install', 'codex', '--yes'], { timeoutMs: 120_000 });
    expect(again.stdout).toContain('already has [mcp_servers.garuda]');
    expect((await readFile(file, 'utf8')).startsWith(before)).toBe(true);
  });

  it('writes nothing without a yes, nor into a file it cannot edit safely; an unknown host is a usage error', async () => {
    const file = await world.putUserFile('.gemini/settings.json', '{ "theme": "dark" }\n');
    const declined = await world.run(['install', 'gemini']);
    expect(declined.code).toBe(4);
    expect(declined.stderr).toContain('pass --yes to write it');
    expect(await readFile(file, 'utf8')).toBe('{ "theme": "dark" }\n');

    const broken = await world.putUserFile('.claude.json', '{ "mcpServers": { oops }\n');
    const refused = await world.run(['install', 'claude-code', '--yes']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('is not valid JSON at line 1');
    expect(refused.stderr).toContain('garuda-mcp does not edit a JSON file it cannot parse');
    expect(await readFile(broken, 'utf8')).toBe('{ "mcpServers": { oops }\n');

    const unknown = await world.run(['install', 'notepad']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('claude-desktop, claude-code, cursor, vscode, gemini, codex');
  });

  it('writes an entry that really starts the gateway, as the host would run it', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-install-run') });
    expect((await world.run(['install', 'cursor', '--yes'])).code).toBe(0);
    const written = JSON.parse(
      await readFile(path.join(world.userHome, '.cursor/mcp.json'), 'utf8'),
    ) as {
      mcpServers: { garuda: { command: string; args: string[] } };
    };
    const { command, args } = written.mcpServers.garuda;
    const client = new Client({ name: 'cursor-like', version: '1.0.0' });
    await client.connect(
      new ProcessTransport({ command, args, env: world.env({ GARUDA_TOKEN_STORE: 'file' }) }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('notes__echo');
    } finally {
      await client.close();
    }
  });
});
