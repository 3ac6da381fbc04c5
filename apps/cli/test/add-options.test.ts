// garuda-mcp add --timeout, --write, --read and --replace: what they write into the user's config
// file and what they refuse, run without a terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

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
    expect(await world.userServerEntry('fs')).toEqual({
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
    expect(await world.userServerEntry('k8s')).toEqual({
      command: 'kubectl-mcp',
      readPaths: ['~/.kube', '~/.config/gcloud'],
    });
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
