// A broken config entry or file: every command names it first, run without a terminal.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('config problems are named first, by every command', () => {
  const BROKEN = { command: process.execPath, timeoutMs: 5 };

  it('a broken entry: call, tools, get, login, enable name the entry and its problem (exit 3)', async () => {
    await world.userServers({ good: fixtureEntry('normal'), broken: BROKEN });
    const file = path.join(world.home, 'mcp.json');
    const text = await readFile(file, 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('"timeoutMs": 5')) + 1;
    const place = new RegExp(
      `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+: server "broken": "timeoutMs" must be`,
    );
    for (const args of [
      ['call', 'broken/tool', '--yes'],
      ['call', 'mcp__broken__tool', '--yes'],
      ['tools', 'broken'],
      ['get', 'broken'],
      ['login', 'broken'],
    ]) {
      const result = await world.run(args);
      expect(result.code, args.join(' ')).toBe(3);
      // First the problem (before anything else), then why the command cannot go on.
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^config problem: ${place.source}`));
      expect(result.stderr).toContain(
        `garuda-mcp: MCP server "broken" cannot be used: its entry in ${file} is invalid:`,
      );
      expect(result.stderr).toContain('remove it: garuda-mcp remove broken');
      expect(result.stderr).not.toContain('No configured MCP server has a tool');
    }
    // Every command that reads the config says it first, also those that can go on.
    for (const args of [
      ['list'],
      ['status'],
      ['tools'],
      ['doctor'],
      ['get', 'good'],
      ['disable', 'broken'],
    ]) {
      const result = await world.run(args);
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^config problem: ${place.source}`));
    }
    // disable worked on the broken entry; its problem stays (exit 3 from list).
    expect(JSON.parse(await readFile(file, 'utf8')).servers.broken.enabled).toBe(false);
  });

  it('an unset ${NAME} is a warning about its server: list and status exit 0; that server does not start, naming it', async () => {
    await world.userServers({
      good: fixtureEntry('normal'),
      keyless: { ...fixtureEntry('normal'), env: { API_KEY: '${GARUDA_TEST_UNSET_KEY}' } },
    });
    const list = await world.run(['list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(
      /^warning: .*server "keyless": env "API_KEY" takes \$\{GARUDA_TEST_UNSET_KEY\}/m,
    );
    expect(list.stderr).not.toContain('config problem:');
    expect(list.stdout).toMatch(/^good\s/m);
    expect(list.stdout).toMatch(/^keyless\s/m);
    const status = await world.run(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^good\s+user\s+connected/m);
    expect(status.stdout).toContain(
      'its env "API_KEY" takes ${GARUDA_TEST_UNSET_KEY}, which is not set: set GARUDA_TEST_UNSET_KEY',
    );
    const tools = await world.run(['tools']);
    expect(tools.code).toBe(0);
  });

  it('a file that does not parse: status, tools and list name it instead of "no servers configured"', async () => {
    const file = path.join(world.home, 'mcp.json');
    await writeFile(file, '{ "servers": {\n  "fx": { "command": "node" },\n}}\n');
    for (const args of [['status'], ['tools'], ['list'], ['doctor']]) {
      const result = await world.run(args);
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.stderr, args.join(' ')).toMatch(
        new RegExp(
          `^config problem: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: is not valid JSON`,
        ),
      );
      expect(result.stdout, args.join(' ')).not.toMatch(
        /No MCP servers are configured|none configured/,
      );
    }
    expect((await world.run(['status'])).stdout).toContain(
      `No MCP server was loaded: fix the problems listed above in ${file}.`,
    );
    // A name that may be in the unreadable file: exit 3, not "unknown server".
    const call = await world.run(['call', 'fx/echo', '--yes']);
    expect(call.code).toBe(3);
    expect(call.stderr).toContain(`MCP server "fx" was not found, and ${file} could not be read`);
    // An edit leaves it as it is and says why.
    const before = await readFile(file, 'utf8');
    const disable = await world.run(['disable', 'fx']);
    expect(disable.code).toBe(3);
    expect(disable.stderr).toContain(
      `${file} was not changed: fix the problems listed above first.`,
    );
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('status, list and doctor in a folder without .garuda create nothing there', async () => {
    const { mkdir: makeDir, readdir } = await import('node:fs/promises');
    const bare = path.join(world.userHome, 'bare-project');
    await makeDir(bare);
    await world.userServers({
      off: { ...fixtureEntry('normal'), enabled: false },
      web: { url: 'http://127.0.0.1:9/mcp' },
    });
    for (const args of [['status'], ['list'], ['doctor'], ['tools']]) {
      const result = await world.run([...args, '--root', bare]);
      expect(result.code, args.join(' ')).not.toBeNull();
      expect(await readdir(bare), args.join(' ')).toEqual([]);
    }
  });
});
