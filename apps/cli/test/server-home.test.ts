// Each local server's own home folder, as the CLI shows it (get, status --json) and keeps or
// deletes it (remove, remove --delete-home).
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE_SERVER } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

const MARK = 'garuda-cli-server-home';

describe('server homes', () => {
  it('get and status --json name the home; remove keeps it and says where; --delete-home deletes it', async () => {
    const add = [
      'add',
      'ev',
      '--env',
      'MEMORY_FILE_PATH=${GARUDA_SERVER_HOME}/memory.jsonl',
      '--',
      process.execPath,
      FIXTURE_SERVER,
      'normal',
      MARK,
    ];
    const added = await world.run(add);
    expect(added.code).toBe(0);
    // The placeholder is no variable of the environment: no warning about it.
    expect(added.stderr).not.toContain('GARUDA_SERVER_HOME');
    const home = path.join(world.userHome, '.local', 'share', 'garuda-mcp', 'servers', 'ev');

    const got = await world.run(['get', 'ev']);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain(`home     ${home} (its own, writable, kept)`);
    const json = JSON.parse((await world.run(['get', 'ev', '--json'])).stdout) as { home: string };
    expect(json.home).toBe(home);

    const status = await world.run(['status', '--json']);
    expect(status.code).toBe(0);
    const rows = (JSON.parse(status.stdout) as { servers: { name: string; home?: string }[] })
      .servers;
    expect(rows).toEqual([expect.objectContaining({ name: 'ev', state: 'connected', home })]);
    expect(((await stat(home)).mode & 0o777).toString(8)).toBe('700');
    const call = await world.run(['call', 'ev/env', '{"names":["MEMORY_FILE_PATH"]}', '--yes']);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain(JSON.stringify(path.join(home, 'memory.jsonl')));

    const removed = await world.run(['remove', 'ev']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(
      `Its home folder ${home} is kept (a server added again as "ev" finds its data there). To delete it: rm -rf -- ${home}`,
    );
    expect(existsSync(home)).toBe(true);

    expect((await world.run(add)).code).toBe(0);
    const deleted = await world.run(['remove', 'ev', '--delete-home', '--json']);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ home: { path: home, kept: false } });
    expect(existsSync(home)).toBe(false);
  });

  it('the homes are under $GARUDA_DATA_DIR/servers, else $XDG_DATA_HOME/garuda-mcp/servers', async () => {
    expect((await world.run(['add', 'ev', '--', 'node', 'x.js'])).code).toBe(0);
    const data = path.join(world.root, 'data');
    const own = await world.run(['get', 'ev', '--json'], { env: { GARUDA_DATA_DIR: data } });
    expect((JSON.parse(own.stdout) as { home: string }).home).toBe(
      path.join(data, 'servers', 'ev'),
    );
    const xdg = path.join(world.userHome, 'xdg');
    const fromXdg = await world.run(['get', 'ev', '--json'], { env: { XDG_DATA_HOME: xdg } });
    expect((JSON.parse(fromXdg.stdout) as { home: string }).home).toBe(
      path.join(xdg, 'garuda-mcp', 'servers', 'ev'),
    );
    // A remote server has none.
    expect((await world.run(['add', 'web', '--url', 'https://mcp.example.com/mcp'])).code).toBe(0);
    expect(JSON.parse((await world.run(['get', 'web', '--json'])).stdout)).not.toHaveProperty(
      'home',
    );
  });
});
