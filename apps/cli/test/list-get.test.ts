// garuda-mcp list and get: the configured servers as written, none started, without a terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('list and get', () => {
  it('list: every configured server with source, type, enabled and command line, none started', async () => {
    const ran = path.join(world.userHome, 'it-ran');
    const marker = {
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(ran)}, 'x')`],
    };
    await world.userServers({
      mine: { ...marker, enabled: false },
      web: { url: 'https://mcp.example.com/mcp' },
    });
    await world.projectServers({ theirs: { command: 'run me', args: ['two words'] } });
    const result = await world.run(['list']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^NAME\s+SOURCE\s+TYPE\s+ENABLED\s+COMMAND OR URL$/m);
    expect(result.stdout).toMatch(
      new RegExp(
        `^mine\\s+user\\s+stdio\\s+no\\s+${process.execPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -e `,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/^web\s+user\s+http\s+yes\s+https:\/\/mcp\.example\.com\/mcp$/m);
    expect(result.stdout).toMatch(/^theirs\s+project\s+stdio\s+yes\s+'run me' 'two words'$/m);
    const json = JSON.parse((await world.run(['list', '--json'])).stdout) as {
      servers: {
        name: string;
        source: string;
        kind: string;
        enabled: boolean;
        commandLine: string;
      }[];
    };
    expect(json.servers.map((s) => [s.name, s.source, s.kind, s.enabled])).toEqual([
      ['mine', 'user', 'local', false],
      ['web', 'user', 'remote', true],
      ['theirs', 'project', 'local', true],
    ]);
    expect(json.servers[2]?.commandLine).toBe("'run me' 'two words'");
    // Nothing was started (the marker server would have written its file).
    await expect(readFile(ran)).rejects.toMatchObject({ code: 'ENOENT' });
    // And nothing is remembered.
    await expect(readFile(path.join(world.home, 'trust.json'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('list names the entries that did not load', async () => {
    await world.userServers({ good: fixtureEntry('normal'), 'Bad Name': fixtureEntry('normal') });
    const result = await world.run(['list']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^good\s+user/m);
    expect(result.stdout).toContain(
      `Not loaded, because of the problems listed above: Bad Name (${path.join(world.home, 'mcp.json')}).`,
    );
  });

  it('get: one entry and its file, secrets written out masked, ${NAME} as written', async () => {
    const secret = 'sk_live_0123456789abcdefghijklmnop';
    await world.userServers({
      fx: {
        ...fixtureEntry('normal'),
        env: { API_KEY: 'plainvalue', TOKEN_REF: '${MY_TOKEN}', MODE: 'fast', LONG: secret },
        writePaths: ['/data'],
        readPaths: ['~/.kube', 'vendor/tool'],
        timeoutMs: 30_000,
      },
      web: {
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${WEB_TOKEN}', 'X-Api-Key': secret, 'X-Team': 'core' },
        oauth: { clientId: 'garuda-cli', scopes: ['a', 'b'] },
        enabled: false,
      },
    });
    const local = await world.run(['get', 'fx'], { env: { MY_TOKEN: 'x', WEB_TOKEN: 'y' } });
    expect(local.code).toBe(0);
    expect(local.stdout).toContain(
      `fx: a local server (stdio) in your file ${path.join(world.home, 'mcp.json')}`,
    );
    expect(local.stdout).toMatch(/^ {2}env\s+API_KEY=\*\*\*\*$/m);
    expect(local.stdout).toMatch(/^ {2}env\s+TOKEN_REF=\$\{MY_TOKEN\}$/m);
    expect(local.stdout).toMatch(/^ {2}env\s+MODE=fast$/m);
    expect(local.stdout).toMatch(/^ {2}env\s+LONG=\*\*\*\*$/m);
    expect(local.stdout).toMatch(/^ {2}writes\s+\/data$/m);
    expect(local.stdout).toMatch(/^ {2}reads\s+~\/\.kube, vendor\/tool$/m);
    expect(local.stdout).toMatch(/^ {2}timeout\s+30000 ms$/m);
    const remote = await world.run(['get', 'web'], { env: { MY_TOKEN: 'x', WEB_TOKEN: 'y' } });
    expect(remote.stdout).toMatch(/^ {2}header\s+Authorization: Bearer \$\{WEB_TOKEN\}$/m);
    expect(remote.stdout).toMatch(/^ {2}header\s+X-Api-Key: \*\*\*\*$/m);
    expect(remote.stdout).toMatch(/^ {2}header\s+X-Team: core$/m);
    expect(remote.stdout).toMatch(/^ {2}oauth\s+client id garuda-cli, scopes a b$/m);
    expect(remote.stdout).toMatch(/^ {2}enabled\s+no$/m);
    const json = JSON.parse((await world.run(['get', 'web', '--json'])).stdout) as {
      file: string;
      def: { headers: Record<string, string> };
      masked: string[];
    };
    expect(json.file).toBe(path.join(world.home, 'mcp.json'));
    expect(json.def.headers).toEqual({
      Authorization: 'Bearer ${WEB_TOKEN}',
      'X-Api-Key': '****',
      'X-Team': 'core',
    });
    expect(json.masked).toEqual(['headers.X-Api-Key']);
    for (const output of [local, remote]) {
      expect(output.stdout + output.stderr).not.toContain(secret);
      expect(output.stdout + output.stderr).not.toContain('plainvalue');
    }
  });
});
