// garuda-mcp add and remove: what they write into the config files, run without a terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { worldPerTest, type CliWorld } from './cli-support.js';

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

describe('add: --timeout, --write, --read and --replace', () => {
  it('writes timeoutMs and writePaths; checks --timeout as the schema does', async () => {
    const data = path.join(world.userHome, 'data');
    const { mkdir: makeDir } = await import('node:fs/promises');
    await makeDir(data);
    const added = await world.run([
      'add',
      'fs',
      '--timeout',
      '120000',
      '--write',
      data,
      '--write',
      '~/out',
      '--',
      'node',
      'fs.js',
    ]);
    expect(added.code).toBe(0);
    expect(
      JSON.parse(await readFile(path.join(world.home, 'mcp.json'), 'utf8')).servers.fs,
    ).toEqual({
      command: 'node',
      args: ['fs.js'],
      writePaths: [data, '~/out'],
      timeoutMs: 120_000,
    });
    // ~/out does not exist: the server would not start, and add says so.
    expect(added.stderr).toContain(
      `--write "~/out": ${path.join(world.userHome, 'out')} does not exist`,
    );
    expect(added.stderr).not.toContain(`--write "${data}"`);
    for (const bad of ['999', '600001', '5s', '1e4', '']) {
      const result = await world.run(['add', 'x', '--timeout', bad, '--', 'node']);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain(
        '--timeout takes the call time limit in milliseconds, a whole number from 1000 to 600000',
      );
    }
    const remote = await world.run([
      'add',
      'web',
      '--url',
      'https://a.example/mcp',
      '--write',
      data,
    ]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--write and --read are for command servers');
  });

  it("writes readPaths; refuses Garuda's own folder and a socket place; says what does not exist", async () => {
    const { mkdir: makeDir } = await import('node:fs/promises');
    await makeDir(path.join(world.userHome, '.kube'));
    const added = await world.run([
      'add',
      'k8s',
      '--read',
      '~/.kube',
      '--read',
      '~/.kube',
      '--read',
      '~/.config/gcloud',
      '--',
      'kubectl-mcp',
    ]);
    expect(added.code).toBe(0);
    expect(
      JSON.parse(await readFile(path.join(world.home, 'mcp.json'), 'utf8')).servers.k8s,
    ).toEqual({ command: 'kubectl-mcp', readPaths: ['~/.kube', '~/.config/gcloud'] });
    expect(added.stderr).toContain(
      `--read "~/.config/gcloud": ${path.join(world.userHome, '.config', 'gcloud')} does not exist`,
    );
    expect(added.stderr).not.toContain('--read "~/.kube"');
    for (const [bad, says] of [
      [world.home, "Garuda's own folder"],
      [path.join(world.home, 'trust.json'), "Garuda's own folder"],
      ['/run/user/1000', 'whose sockets lead out of the sandbox'],
    ] as const) {
      const result = await world.run(['add', 'x', '--read', bad, '--', 'node']);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain(`--read ${JSON.stringify(bad)} leads into`);
      expect(result.stderr, bad).toContain(says);
    }
    expect((await world.run(['add', 'x', '--read', '', '--', 'node'])).stderr).toContain(
      '--read needs a file or folder',
    );
    const got = await world.run(['get', 'k8s']);
    expect(got.stdout).toMatch(/^ {2}reads\s+~\/\.kube, ~\/\.config\/gcloud$/m);
  });

  it('--replace keeps what it does not mention, says so, and drops what the new kind cannot have', async () => {
    await world.userServers({
      fs: {
        command: 'old',
        args: ['--old'],
        env: { A: '${A}' },
        cwd: 'sub',
        writePaths: ['/data'],
        readPaths: ['~/.kube'],
        timeoutMs: 5000,
        enabled: false,
      },
      web: { url: 'https://a.example/mcp', oauth: { clientId: 'mine' }, headers: { 'X-A': '1' } },
    });
    const file = path.join(world.home, 'mcp.json');
    const local = await world.run(['add', 'fs', '--replace', '--env', 'B=2', '--', 'new', '--new']);
    expect(local.code).toBe(0);
    expect(local.stdout).toContain('Replaced MCP server fs');
    expect(local.stdout).toContain(
      'Kept from the old entry: cwd, writePaths, readPaths, timeoutMs, enabled (it stays disabled: garuda-mcp enable fs turns it on).',
    );
    const written = JSON.parse(await readFile(file, 'utf8')) as {
      servers: Record<string, unknown>;
    };
    expect(written.servers.fs).toEqual({
      command: 'new',
      args: ['--new'],
      env: { B: '2' },
      cwd: 'sub',
      writePaths: ['/data'],
      readPaths: ['~/.kube'],
      timeoutMs: 5000,
      enabled: false,
    });
    // --read replaces the read paths (the other fields stay).
    const reads = await world.run(['add', 'fs', '--replace', '--read', '~/.aws', '--', 'new']);
    expect(reads.stdout).toContain('Kept from the old entry: env, cwd, writePaths, timeoutMs');
    expect(
      (
        JSON.parse(await readFile(file, 'utf8')) as {
          servers: Record<string, { readPaths?: unknown }>;
        }
      ).servers.fs?.readPaths,
    ).toEqual(['~/.aws']);
    const remote = await world.run(['add', 'web', '--replace', '--url', 'https://b.example/mcp']);
    expect(remote.stdout).toContain('Kept from the old entry: oauth, headers.');
    expect(
      (JSON.parse(await readFile(file, 'utf8')) as { servers: Record<string, unknown> }).servers
        .web,
    ).toEqual({
      url: 'https://b.example/mcp',
      headers: { 'X-A': '1' },
      oauth: { clientId: 'mine' },
    });
    const kind = await world.run(['add', 'fs', '--replace', '--url', 'https://c.example/mcp']);
    expect(kind.code).toBe(0);
    expect(kind.stdout).toContain('Kept from the old entry: timeoutMs, enabled');
    expect(kind.stdout).toContain(
      'Dropped from the old entry: env, cwd, writePaths, readPaths (a remote server does not take them).',
    );
  });
});
