// garuda-mcp install leaves alone a host file it cannot parse or edit safely: broken TOML or JSON,
// a table a new one cannot extend, a FIFO, a file that is not UTF-8.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupsOf } from './support/backups.js';
import { BIN } from './support/paths.js';
import { worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

const entry = () => ({ command: process.execPath, args: [BIN, 'serve', '--root', world.root] });

describe('garuda-mcp install: host files it cannot parse are left untouched', () => {
  const LEVELS = 100_000;

  it.each([
    ['an unclosed table header', 'model = "o4"\n[mcp_servers.notes\ncommand = "notes-server"\n', 2],
    ['a key written twice', '[mcp_servers.notes]\ncommand = "a"\ncommand = "b"\n', 3],
    ['an unclosed string', 'model = "o4\n', 1],
    [
      'a table written twice',
      '[mcp_servers.a]\ncommand = "a"\n[mcp_servers.a]\ncommand = "b"\n',
      3,
    ],
  ])(
    'install codex leaves a config.toml it cannot parse (%s) untouched byte for byte, and says where and what to do',
    async (_what, before, line) => {
      const file = await world.putUserFile('.codex/config.toml', before);
      for (const args of [['--yes'], ['--yes', '--move']]) {
        const result = await world.run(['install', 'codex', ...args]);
        expect(result.code).toBe(3);
        expect(result.stderr).toContain(`garuda-mcp: ${file} is not valid TOML at line ${line}`);
        expect(result.stderr).toContain(
          'garuda-mcp does not edit a TOML file it cannot parse: fix the file, then run garuda-mcp install codex again, or add the entry by hand. Nothing was written; the file is as it was.',
        );
        expect(result.stdout).toBe('');
        expect(await readFile(file, 'utf8')).toBe(before);
        expect(await backupsOf(file)).toEqual([]);
      }
    },
  );

  it('install codex leaves a file whose mcp_servers a new table cannot extend (an inline table) untouched', async () => {
    const before = 'mcp_servers = { notes = { command = "notes-server" } }\n';
    const file = await world.putUserFile('.codex/config.toml', before);
    const result = await world.run(['install', 'codex', '--yes']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file} cannot take the entry`);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('install codex is not fooled by a [mcp_servers.garuda] written inside a string', async () => {
    const before = 'notes = """\n[mcp_servers.garuda]\n"""\n';
    const file = await world.putUserFile('.codex/config.toml', before);
    const result = await world.run(['install', 'codex', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`codex: added the garuda entry to ${file}`);
    expect((await readFile(file, 'utf8')).slice(before.length)).toBe(
      `\n[mcp_servers.garuda]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${entry()
        .args.map((arg) => JSON.stringify(arg))
        .join(', ')}]\n`,
    );
  });

  it.each([
    ['gemini', '.gemini/settings.json', 'mcpServers'],
    ['claude-code', '.claude.json', 'mcpServers'],
    ['vscode', '.config/Code/User/mcp.json', 'servers'],
  ])(
    'install %s on 100 000 levels of nesting (stack exhaustion) gives a clear error, and the file is untouched',
    async (host, relative, key) => {
      const nested = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
      for (const before of [
        `{"theme": ${nested}}`,
        `{"${key}": {"notes": {"command": "n", "args": ${nested}}}}`,
      ]) {
        const file = await world.putUserFile(relative, before);
        const result = await world.run(['install', host, '--yes', '--move']);
        expect(result.code).toBe(3);
        expect(result.stderr).not.toContain('Maximum call stack');
        expect(result.stderr).toContain(
          `garuda-mcp: ${file} nests arrays and objects more than 64 levels deep (from line 1, column `,
        );
        expect(result.stderr).toContain(
          `garuda-mcp does not edit a JSON file it cannot parse: fix the file, then run garuda-mcp install ${host} again`,
        );
        expect(await readFile(file, 'utf8')).toBe(before);
        expect(await backupsOf(file)).toEqual([]);
      }
      const imported = await world.run(['import']);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('nests arrays and objects more than 64 levels deep');
    },
  );

  it('install refuses a FIFO planted at the host file\u2019s path instead of waiting on it (a hang)', async () => {
    const file = path.join(world.userHome, '.gemini', 'settings.json');
    await mkdir(path.dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    const result = await world.run(['install', 'gemini', '--yes']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `${file} is not a regular file, so garuda-mcp does not edit it`,
    );
    expect((await stat(file)).isFIFO()).toBe(true);
  });

  it('install leaves a settings.json that is not UTF-8 untouched', async () => {
    const before = Buffer.from('{ "theme": "caf\xe9" }\n', 'latin1');
    const file = await world.putUserFile('.gemini/settings.json', '');
    await writeFile(file, before);
    const result = await world.run(['install', 'gemini', '--yes']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file} is not UTF-8 text, so garuda-mcp does not edit it`);
    expect((await readFile(file)).equals(before)).toBe(true);
  });
});
