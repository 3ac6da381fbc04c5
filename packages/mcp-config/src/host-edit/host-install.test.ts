// The library side of `garuda-mcp install`: plan, then apply; nothing is written by the plan, a
// file that cannot take the entry is refused with a reason, and a move leaves a backup.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { put, tempDirs } from '../../test/temp-dir.js';
import { HostFileError } from '../errors.js';
import { applyHostInstall, planHostInstall } from './host-install.js';

const dirs = tempDirs();

async function world() {
  const dir = await dirs.create();
  const userHome = path.join(dir, 'home');
  const at = { userHome, root: path.join(dir, 'repo'), platform: 'linux' };
  return {
    at,
    userFile: path.join(userHome, '.garuda', 'mcp.json'),
    plan: (host: 'cursor' | 'codex') =>
      planHostInstall({
        ...at,
        host,
        command: '/bin/node',
        args: ['cli.js', 'serve'],
        existingNames: () => [],
      }),
  };
}

describe('planHostInstall / applyHostInstall', () => {
  it('plans without writing, then adds the entry keeping every other byte', async () => {
    const w = await world();
    const before = '// mine\n{\n  "mcpServers": {}, // none yet\n}\n';
    const file = await put(path.join(w.at.userHome, '.cursor', 'mcp.json'), before);
    const plan = await w.plan('cursor');
    expect(plan).toMatchObject({ file, exists: true, hasEntry: false, move: undefined });
    expect(plan.addition).toBe(
      '"mcpServers": { "garuda": {"command":"/bin/node","args":["cli.js","serve"]} }',
    );
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await applyHostInstall(plan, { move: false, userFile: w.userFile })).toEqual({
      written: true,
    });
    expect(await readFile(file, 'utf8')).toBe(
      '// mine\n{\n  "mcpServers": {\n    "garuda": {"command":"/bin/node","args":["cli.js","serve"]}\n  }, // none yet\n}\n',
    );
    const again = await w.plan('cursor');
    expect(again).toMatchObject({ hasEntry: true, addition: undefined });
    expect(await applyHostInstall(again, { move: false, userFile: w.userFile })).toEqual({
      written: false,
    });
  });

  it('moves a TOML host’s tables into Garuda’s user file, with a backup', async () => {
    const w = await world();
    const before = 'model = "o4"\n\n[mcp_servers.notes]\ncommand = "notes-server"\n';
    const file = await put(path.join(w.at.userHome, '.codex', 'config.toml'), before);
    const plan = await w.plan('codex');
    expect(plan.move?.moving.map((server) => server.raw)).toEqual(['notes']);
    const done = await applyHostInstall(plan, {
      move: true,
      userFile: w.userFile,
      now: new Date('2026-01-02T03:04:05Z'),
    });
    expect(done.moved).toEqual({
      names: ['notes'],
      backup: `${file}.garuda-backup-20260102T030405Z`,
    });
    expect(await readFile(file, 'utf8')).toBe(
      'model = "o4"\n\n[mcp_servers.garuda]\ncommand = "/bin/node"\nargs = ["cli.js", "serve"]\n',
    );
    expect(JSON.parse(await readFile(w.userFile, 'utf8'))).toMatchObject({
      servers: { notes: { command: 'notes-server' } },
    });
    expect(await readdir(path.dirname(file))).toHaveLength(2);
  });

  it('refuses a file it cannot parse with HOST_FILE_UNUSABLE, and a plan it did not make', async () => {
    const w = await world();
    const file = await put(path.join(w.at.userHome, '.cursor', 'mcp.json'), '{ "mcpServers": [] }');
    const error = await w.plan('cursor').catch((e: unknown) => e);
    expect(HostFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'CONFIG_HOST_FILE_UNUSABLE',
      reason: 'list-not-an-object',
      file,
    });
    await writeFile(file, '{ oops');
    await expect(w.plan('cursor')).rejects.toMatchObject({ reason: 'unparsable' });
    const plan = await w.plan('codex');
    await expect(
      applyHostInstall({ ...plan }, { move: false, userFile: w.userFile }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID_ARGUMENT' });
  });
});
