// The version garuda-mcp says it is: `--version`, the `clientInfo` every server it starts is
// sent, and the `serverInfo` of `garuda-mcp serve` are all apps/cli/package.json's version,
// built in (src/version.ts). The servers are real: the fixture's `whoami` mode answers with the
// `clientInfo` it was sent.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '@garuda/mcp-transport';
import { describe, expect, it } from 'vitest';
import { BIN } from './support/paths.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

const { version: VERSION } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

let world: CliWorld;
worldPerTest((created) => (world = created));

/** The JSON inside the `<mcp_result>` frame that `call` prints. */
function framed(stdout: string): unknown {
  const match = /^<mcp_result server="who" tool="client_info">\n(.*)\n<\/mcp_result>$/m.exec(
    stdout,
  );
  expect(match, `call printed:\n${stdout}`).not.toBeNull();
  return JSON.parse(match![1]!);
}

describe('the version of garuda-mcp', () => {
  it('--version prints apps/cli/package.json’s version, a released one', async () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(VERSION).not.toBe('0.0.0');
    const result = await world.run(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('is the clientInfo a server it starts is sent: name garuda-mcp and this version', async () => {
    await world.userServers({ who: fixtureEntry('whoami', 'garuda-cli-version') });
    const result = await world.run(['call', 'who/client_info', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(framed(result.stdout)).toEqual({ name: 'garuda-mcp', version: VERSION });
  });

  it('is what garuda-mcp serve tells its host, and what it tells the servers behind it', async () => {
    await world.userServers({ who: fixtureEntry('whoami', 'garuda-cli-version-serve') });
    const transport = new ProcessTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--approvals', 'host'],
      env: world.env(),
      cwd: world.root,
    });
    const host = new Client({ name: 'test-host', version: '1.0.0' });
    try {
      await host.connect(transport);
      expect(host.getServerVersion()).toMatchObject({ name: 'garuda-mcp', version: VERSION });
      const result = await host.callTool({ name: 'who__client_info', arguments: {} });
      const text = (result.content as { type: string; text?: string }[])
        .map((block) => block.text ?? '')
        .join('\n');
      expect(text).toContain(JSON.stringify({ name: 'garuda-mcp', version: VERSION }));
    } finally {
      await host.close();
    }
  });
});
