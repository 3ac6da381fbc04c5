// garuda-mcp add and remove: what they write into the config files, run without a terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('add and remove', () => {
  it('round trip: add a command server and a remote one, list them, remove one; other bytes stay', async () => {
    const added = await world.run([
      'add',
      'files',
      '--env',
      'TOKEN=${MY_TOKEN}',
      '--',
      'node',
      'server.js',
      '--flag',
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added MCP server files');
    const remote = await world.run([
      'add',
      'web',
      '--url',
      'https://mcp.example.com/mcp',
      '--header',
      'X-Team=core',
    ]);
    expect(remote.code).toBe(0);
    const file = path.join(world.home, 'mcp.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as {
      servers: Record<string, unknown>;
    };
    expect(written.servers).toEqual({
      files: { command: 'node', args: ['server.js', '--flag'], env: { TOKEN: '${MY_TOKEN}' } },
      web: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'core' } },
    });
    const before = await readFile(file, 'utf8');

    const again = await world.run(['add', 'files', '--', 'node', 'other.js']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('--replace');
    expect(await readFile(file, 'utf8')).toBe(before);

    const removed = await world.run(['remove', 'files']);
    expect(removed.code).toBe(0);
    const after = JSON.parse(await readFile(file, 'utf8')) as { servers: Record<string, unknown> };
    expect(Object.keys(after.servers)).toEqual(['web']);
    const gone = await world.run(['remove', 'files']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`There is no MCP server "files" in your file (${file})`);
  });

  it('--project writes the project file and refuses what a project may not have', async () => {
    const local = await world.run(['add', 'tool', '--project', '--', 'node', 'x.js']);
    expect(local.code).toBe(0);
    expect(local.stderr).toContain('ask for consent');
    const project = JSON.parse(
      await readFile(path.join(world.root, '.garuda', 'mcp.json'), 'utf8'),
    ) as {
      servers: Record<string, unknown>;
    };
    expect(project.servers).toEqual({ tool: { command: 'node', args: ['x.js'] } });
    const loopback = await world.run([
      'add',
      'web',
      '--project',
      '--url',
      'http://127.0.0.1:9/mcp',
    ]);
    expect(loopback.code).toBe(3);
    expect(loopback.stderr).toMatch(/https|loopback|localhost/);
  });

  it('refuses a bad name, both or neither of command and URL, and warns about a written-out secret', async () => {
    expect((await world.run(['add', 'Bad Name', '--', 'node'])).code).toBe(3);
    expect((await world.run(['add', 'x'])).code).toBe(2);
    expect((await world.run(['add', 'x', '--url', 'https://a.example', '--', 'node'])).code).toBe(
      2,
    );
    expect(
      (await world.run(['add', 'x', '--header', 'nope', '--url', 'https://a.example'])).code,
    ).toBe(2);
    const secret = await world.run([
      'add',
      'api',
      '--url',
      'https://api.example.com/mcp',
      '--header',
      'Authorization=Bearer sk_live_0123456789abcdefghijklmnop',
    ]);
    expect(secret.code).toBe(0);
    expect(secret.stderr).toMatch(/Authorization looks like a secret written out/);
    expect(secret.stderr).not.toContain('sk_live_0123456789abcdefghijklmnop');
  });

  it('warns about a secret written out in the arguments, with the ${NAME} form to use instead', async () => {
    const inline = await world.run([
      'add',
      'fire',
      '--',
      'npx',
      '-y',
      'x',
      '--api-key=sk_live_0123456789abcdefghijklmnop',
    ]);
    expect(inline.code).toBe(0);
    expect(inline.stderr).toContain(
      'warning: the argument --api-key=… looks like a secret written out',
    );
    expect(inline.stderr).toContain("--env API_KEY='${API_KEY}'");
    expect(inline.stderr).not.toContain('sk_live_0123456789abcdefghijklmnop');
    expect(inline.stdout).toContain("npx -y x '--api-key=****'");
    expect(inline.stdout).not.toContain('sk_live_0123456789abcdefghijklmnop');
    const apart = await world.run([
      'add',
      'hub',
      '--',
      'npx',
      'x',
      '--access-token=plainvalue123',
      '--token',
      'another-plain-value',
    ]);
    expect(apart.code).toBe(0);
    expect(apart.stderr).toContain('the argument --access-token=… looks like a secret');
    expect(apart.stderr).toContain("--env ACCESS_TOKEN='${ACCESS_TOKEN}'");
    expect(apart.stderr).toContain('the argument --token … looks like a secret');
    expect(apart.stderr).toContain("--env TOKEN='${TOKEN}'");
    expect(apart.stderr).not.toMatch(/plainvalue123|another-plain-value/);
    // An ordinary option, a path or a flag is no secret.
    const plain = await world.run([
      'add',
      'fs',
      '--',
      'npx',
      'x',
      '--token-file',
      '/home/me/.token',
      '--verbose',
    ]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain('looks like a secret');
  });
});
